// The signed-in user's links, newest first, a page at a time, searchable and filtered by tag: clicks,
// dates, tags, Copy and Delete; with export and import.
import { useEffect, useRef, useState } from "preact/hooks";
import { call, type Link, type LinkPage } from "./api";
import { CopyButton } from "./copy-button";
import { formatDate, formatDateTime } from "./dates";
import { FormError } from "./field";
import { ImportExport, SearchBar, type Filter } from "./link-tools";
import { inWorkspace, useWorkspaces } from "./workspace";
import { usePageTitle } from "./page-title";

/** The query of GET /urls for a filter and a cursor. */
function listPath(filter: Filter, after?: string): string {
  const query = new URLSearchParams();
  if (filter.q.trim() !== "") query.set("q", filter.q.trim());
  if (filter.tag !== "") query.set("tag", filter.tag);
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
  const [imports, setImports] = useState(0);
  const workspace = useWorkspaces().current;

  const loadPage = async (after?: string) => {
    setState("loading");
    setError(null);
    try {
      const page = await call<LinkPage>("GET", listPath(filter, after));
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
  }, [filter.q, filter.tag, imports, workspace?.id]);

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
      <SearchBar filter={filter} onFilter={setFilter} refresh={imports} />
      <FormError message={error} />
      {state !== "loading" && links.length === 0 && !error && (filter.q !== "" || filter.tag !== "") && (
        <p class="notice">No links match.</p>
      )}
      {state !== "loading" && links.length === 0 && !error && filter.q === "" && filter.tag === "" && (
        <p class="notice">
          No links yet. <a href="#/">Shorten one</a>.
        </p>
      )}
      <ul class="links" aria-busy={state === "loading"}>
        {links.map((l) => (
          <LinkItem key={l.code} link={l} onDelete={() => setDeleting(l)} />
        ))}
      </ul>
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

function expiry(link: Link): string {
  if (!link.expiresAt) return "Never expires";
  const at = formatDateTime(link.expiresAt);
  return Date.parse(link.expiresAt) <= Date.now() ? `Expired ${at}` : `Expires ${at}`;
}

function LinkItem({ link, onDelete }: { link: Link; onDelete: () => void }) {
  return (
    <li class="card link" aria-label={link.shortUrl}>
      <p class="short-url">
        <a href={link.shortUrl} target="_blank" rel="noopener">
          {link.shortUrl}
        </a>
      </p>
      <p class="target" title={link.originalUrl}>
        {link.originalUrl}
      </p>
      <dl class="facts">
        <div>
          <dt>Clicks</dt>
          <dd data-testid="clicks">{link.clicks}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(link.createdAt)}</dd>
        </div>
        <div>
          <dt>By</dt>
          <dd data-testid="creator">{link.creator.label ?? "(deleted account)"}</dd>
        </div>
        <div>
          <dt>Expiry</dt>
          <dd>{expiry(link)}</dd>
        </div>
        {link.maxClicks !== null && (
          <div>
            <dt>Click limit</dt>
            <dd>{link.maxClicks}</dd>
          </div>
        )}
        {link.hasPassword && (
          <div>
            <dt>Password</dt>
            <dd>Required</dd>
          </div>
        )}
      </dl>
      {link.tags.length > 0 && (
        <ul class="tags" aria-label="Tags">
          {link.tags.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      )}
      <div class="actions">
        <CopyButton text={link.shortUrl} />
        <a class="button secondary" href={`#/links/${encodeURIComponent(link.code)}`}>
          Details
        </a>
        <button type="button" class="danger" onClick={onDelete}>
          Delete
        </button>
      </div>
    </li>
  );
}

/** A modal that asks before deleting; Escape or Cancel keeps the link. */
function ConfirmDelete({ link, onConfirm, onCancel }: { link: Link; onConfirm: () => void; onCancel: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onClose={onCancel}>
      <h2 id="confirm-title">Delete this link?</h2>
      <p>
        <strong>{link.shortUrl}</strong> will stop working, and its QR code with it. This cannot be undone.
      </p>
      <div class="actions">
        <button type="button" class="danger" onClick={onConfirm}>
          Delete
        </button>
        <button type="button" class="secondary" autofocus onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
