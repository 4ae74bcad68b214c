// The links page's tools: search and a tag filter, export as CSV or JSON, and import from a CSV file with
// each row's result.
import { useState } from "preact/hooks";
import { call, download, postFile } from "./api";
import { FormError } from "./field";
import { useLoad } from "./use-load";
import { inWorkspace, workspaceId } from "./workspace";

/** Filter is what GET /urls is asked for besides the page. */
export interface Filter {
  q: string;
  tag: string;
}

/** One JSON line of POST /urls/import's answer. */
type ImportLine = { row: number; code: string; existing?: true } | { row: number; error: { code: string; message: string } };

export function SearchBar({ filter, onFilter, refresh }: { filter: Filter; onFilter: (f: Filter) => void; refresh: unknown }) {
  const tags = useLoad(() => call<{ tags: { name: string; links: number }[] }>("GET", inWorkspace("/tags")), `${refresh}-${workspaceId()}`);
  return (
    <form class="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
      <label for="link-search">Search</label>
      <input
        id="link-search"
        type="search"
        placeholder="code, alias or target"
        value={filter.q}
        onInput={(e) => onFilter({ ...filter, q: e.currentTarget.value })}
      />
      <label for="link-tag">Tag</label>
      <select id="link-tag" value={filter.tag} onChange={(e) => onFilter({ ...filter, tag: e.currentTarget.value })}>
        <option value="">All tags</option>
        {tags.state === "ready" &&
          tags.data.tags.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name} ({t.links})
            </option>
          ))}
      </select>
    </form>
  );
}

export function ImportExport({ onImported }: { onImported: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportLine[] | null>(null);

  const save = (format: "csv" | "json") => {
    setError(null);
    download(inWorkspace(`/urls/export?format=${format}`)).catch((err: Error) => setError(err.message));
  };

  const importFile = async (file: File) => {
    setError(null);
    setResult(null);
    setBusy(true);
    try {
      setResult(await importCsv(file));
      onImported();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const failed = result?.filter((l): l is Extract<ImportLine, { error: unknown }> => "error" in l) ?? [];
  const existing = result?.filter((l) => "existing" in l).length ?? 0;
  return (
    <div class="card tools">
      <div class="actions">
        <button type="button" class="secondary" onClick={() => save("csv")}>
          Export CSV
        </button>
        <button type="button" class="secondary" onClick={() => save("json")}>
          Export JSON
        </button>
        <label class="button secondary" for="import-file">
          {busy ? "Importing…" : "Import CSV…"}
        </label>
        <input
          id="import-file"
          class="visually-hidden"
          type="file"
          accept=".csv,text/csv"
          disabled={busy}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = "";
            if (file) void importFile(file);
          }}
        />
      </div>
      <p class="hint">Columns url, alias, expiresAt, tags (separated by ;) and maxClicks, or a Bitly, Shlink or Kutt export.</p>
      <FormError message={error} />
      {result && (
        <div role="status" class="import-result">
          <p>
            <strong>{result.length - failed.length - existing}</strong> links created, <strong>{existing}</strong> already there,{" "}
            <strong>{failed.length}</strong> rows not imported.
          </p>
          {failed.length > 0 && (
            <ul class="import-errors">
              {failed.slice(0, 100).map((l) => (
                <li key={l.row}>
                  Line {l.row}: {l.error.message}
                </li>
              ))}
              {failed.length > 100 && <li>… and {failed.length - 100} more.</li>}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

/** importCsv sends the file and reads the answer's JSON lines. */
async function importCsv(file: File): Promise<ImportLine[]> {
  const text = await postFile(inWorkspace("/urls/import"), file, "text/csv");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as ImportLine);
}
