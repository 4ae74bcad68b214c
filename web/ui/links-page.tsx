// The signed-in user's links as a compact table, a page at a time: searched, filtered by tag and sorted by
// the API; each row with its state, clicks, dates, when it will be removed, Copy, Edit and Delete; with
// export and import. On a phone each row stacks into a small card.
import { useEffect, useState } from "preact/hooks";
import { call, type Link, type LinkPage } from "./api";
import { ConfirmDelete } from "./confirm-delete";
import { CopyButton } from "./copy-button";
import { formatDate, formatDateTime } from "./dates";
import { FormError } from "./field";
import { ImportExport, SearchBar, type Filter } from "./link-tools";
import { removalNote, removalShort, StatusBadges } from "./link-status";
import { TableHead } from "./table-head";
import { TagList } from "./tag-list";
import { inWorkspace, useWorkspaces } from "./workspace";
import { usePageTitle } from "./page-title";

/** The orders GET /urls offers (url/list-order.ts), as the sort menu names them. */
const SORTS = [
  { value: "created", label: "Newest first" },
  { value: "clicks", label: "Most clicks" },
  { value: "code", label: "Code A–Z" },
] as const;
type Sort = (typeof SORTS)[number]["value"];

/** The query of GET /urls for a filter, an order and a cursor. */
function listPath(filter: Filter, sort: Sort, after?: string): string {
  const query = new URLSearchParams();
  if (filter.q.trim() !== "") query.set("q", filter.q.trim());
  if (filter.tag !== "") query.set("tag", filter.tag);
  if (sort !== "created") query.set("sort", sort);
  if (after) query.set("cursor", after);
  const text = query.toString();
  return inWorkspace(text === "" ? "/urls" : `/urls?${text}`);
}

export function LinksPage() {
  usePageTitle("My links");
  const [links, setLinks] = useState<Link[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Link | null>(null);
  const [filter, setFilter] = useState<Filter>({ q: "", tag: "" });
  const [sort, setSort] = useState<Sort>("created");
  const [imports, setImports] = useState(0);
  const workspace = useWorkspaces().current;

  const loadPage = async (after?: string) => {
    setState("loading");
    setError(null);
    try {
      const page = await call<LinkPage>("GET", listPath(filter, sort, after));
      setLinks((prev) => (after ? [...prev, ...page.urls] : page.urls));
      setCursor(page.nextCursor);
      setState("ready");
    } catch (err) {
      setError((err as Error).message);
      setState("error");
    }
  };
  // A new search waits for a pause in typing, so each key press is not a request.
  useEffect(() => {
    const timer = setTimeout(() => void loadPage(), 250);
    return () => clearTimeout(timer);
  }, [filter.q, filter.tag, sort, imports, workspace?.id]);

  const remove = async (link: Link) => {
    setDeleting(null);
    try {
      await call("DELETE", `/urls/${encodeURIComponent(link.code)}`);
      setLinks((prev) => prev.filter((l) => l.code !== link.code));
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section aria-labelledby="links-title">
      <h1 id="links-title" tabIndex={-1}>
        {workspace && !workspace.personal ? `Links of ${workspace.name}` : "My links"}
      </h1>
      <ImportExport onImported={() => setImports((n) => n + 1)} />
      <div class="list-controls">
        <SearchBar filter={filter} onFilter={setFilter} refresh={imports} />
        <span class="sort">
          <label for="link-sort">Sort</label>
          <select id="link-sort" value={sort} onChange={(e) => setSort(e.currentTarget.value as Sort)}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </span>
      </div>
      <FormError message={error} />
      {state !== "loading" && links.length === 0 && !error && (filter.q !== "" || filter.tag !== "") && (
        <p class="notice">No links match.</p>
      )}
      {state !== "loading" && links.length === 0 && !error && filter.q === "" && filter.tag === "" && (
        <p class="notice">
          No links yet. <a href="#/">Shorten one</a>.
        </p>
      )}
      {links.length > 0 && (
        <table class="link-table" aria-busy={state === "loading"} aria-labelledby="links-title">
          <TableHead
            columns={[
              { label: "Link and target", sort: sort === "code" ? "ascending" : undefined },
              { label: "Clicks", class: "num", sort: sort === "clicks" ? "descending" : undefined },
              { label: "Created", sort: sort === "created" ? "descending" : undefined },
              "Status",
            ]}
            actions
          />
          <tbody>
            {links.map((l) => (
              <LinkRow key={l.code} link={l} shared={workspace !== undefined && !workspace.personal} onDelete={() => setDeleting(l)} />
            ))}
          </tbody>
        </table>
      )}
      {state === "loading" && <p class="muted">Loading…</p>}
      {cursor && state === "ready" && (
        <button type="button" class="secondary" onClick={() => loadPage(cursor)}>
          Load more
        </button>
      )}
      {deleting && <ConfirmDelete link={deleting} onConfirm={() => remove(deleting)} onCancel={() => setDeleting(null)} />}
    </section>
  );
}

function LinkRow({ link, shared, onDelete }: { link: Link; shared: boolean; onDelete: () => void }) {
  const details = `#/links/${encodeURIComponent(link.code)}`;
  const removal = removalShort(link);
  const expires = link.expiresAt !== null && Date.parse(link.expiresAt) > Date.now() ? link.expiresAt : null;
  return (
    <tr class="link" aria-label={link.shortUrl}>
      <td class="code">
        <a href={details} title={`Details of ${link.shortUrl}`}>
          {link.code}
        </a>
        <TagList tags={link.tags} />
        {shared && (
          <small class="creator" data-testid="creator">
            {link.creator.label ?? "(deleted account)"}
          </small>
        )}
        <span class="target" title={link.originalUrl}>
          {link.originalUrl}
        </span>
      </td>
      <td class="num">
        <span data-testid="clicks">{link.clicks}</span>
        {link.maxClicks !== null && <span class="muted"> / {link.maxClicks}</span>}
      </td>
      <td class="date">{formatDate(link.createdAt)}</td>
      <td class="state">
        <StatusBadges link={link} />
        {link.hasPassword && <span class="badge password">Password</span>}
        {expires && <small title={formatDateTime(expires)}>Expires {formatDate(expires)}</small>}
        {removal && (
          <small data-testid="removal" title={removalNote(link) ?? undefined}>
            {removal}
          </small>
        )}
      </td>
      <td>
        <div class="row-actions">
          <CopyButton text={link.shortUrl} />
          {!link.disabled && (
            <a class="button secondary small" href={`${details}/edit`} aria-label={`Edit ${link.code}`}>
              Edit
            </a>
          )}
          <button type="button" class="danger small" onClick={onDelete} aria-label={`Delete ${link.code}`}>
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
}
