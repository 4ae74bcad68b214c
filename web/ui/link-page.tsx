// One link's details, whatever its state: target, status, dates, options, when it will be removed, its QR
// code (downloadable), Copy, Edit and Delete, and its click report over a range of days with a CSV download.
import { useState } from "preact/hooks";
import { call, download, type ClickReport, type Link } from "./api";
import { ClickReportView } from "./click-report-view";
import { ConfirmDelete } from "./confirm-delete";
import { CopyButton } from "./copy-button";
import { DateRangePicker, lastDays, rangeQuery } from "./date-range";
import { formatDateTime } from "./dates";
import { FormError } from "./field";
import { linkStates, removalNote, StatusBadges } from "./link-status";
import { QrCode } from "./qr-download";
import { TagList } from "./tag-list";
import { useLoad } from "./use-load";
import { usePageTitle } from "./page-title";

export function LinkPage({ code }: { code: string }) {
  usePageTitle(code);
  const path = encodeURIComponent(code);
  const [range, setRange] = useState(() => lastDays(30));
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const query = rangeQuery(range);
  const link = useLoad(() => call<Link>("GET", `/urls/${path}`), code);
  const report = useLoad(() => call<ClickReport>("GET", `/urls/${path}/clicks?${query}`), `${code}?${query}`);
  const saveCsv = () => {
    setDownloadError(null);
    download(`/urls/${path}/clicks/export?${query}`).catch((err: Error) => setDownloadError(err.message));
  };

  return (
    <section aria-labelledby="link-title">
      <p>
        <a href="#/links">← My links</a>
      </p>
      <h1 id="link-title" tabIndex={-1}>
        {link.state === "ready" ? <ShortUrl url={link.data.shortUrl} /> : code}
      </h1>
      {link.state === "error" && <FormError message={link.status === 404 ? "There is no such link among yours." : link.message} />}
      {link.state === "ready" && <LinkDetails link={link.data} />}
      <h2>Click history</h2>
      <DateRangePicker range={range} onChange={setRange} />
      {report.state === "loading" && <p class="muted">Loading…</p>}
      {report.state === "error" && <p class="muted">Click history is not available: {report.message}</p>}
      {report.state === "ready" && (
        <>
          <ClickReportView report={report.data} subject="this link" />
          {report.data.total > 0 && (
            <div class="actions">
              <button type="button" class="secondary" onClick={saveCsv}>
                Download CSV
              </button>
              <span class="muted">One row per day, dimension and value.</span>
            </div>
          )}
          <FormError message={downloadError} />
        </>
      )}
    </section>
  );
}

function LinkDetails({ link }: { link: Link }) {
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const removal = removalNote(link);
  const remove = async () => {
    setDeleting(false);
    try {
      await call("DELETE", `/urls/${encodeURIComponent(link.code)}`);
      location.hash = "#/links";
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div class="card details">
      <div class="details-body">
        <div class="details-main">
          <p class="status-line">
            <StatusBadges link={link} />
          </p>
          <ul class="explanations">
            {linkStates(link)
              .filter((s) => s.kind !== "active")
              .map((s) => (
                <li key={s.kind}>{s.explanation}</li>
              ))}
          </ul>
          <p class="full-target" data-testid="target">
            Goes to{" "}
            <a href={link.originalUrl} rel="noopener noreferrer" target="_blank">
              {link.originalUrl}
            </a>
          </p>
          <dl class="facts">
            <Fact term="Clicks" value={String(link.clicks)} testId="clicks" />
            <Fact term="Created" value={formatDateTime(link.createdAt)} />
            <Fact term="Expires" value={link.expiresAt === null ? "Never" : formatDateTime(link.expiresAt)} testId="expires" />
            <Fact term="Last click" value={link.lastClickedAt === null ? "Never" : formatDateTime(link.lastClickedAt)} />
            <Fact term="Click limit" value={link.maxClicks === null ? "None" : String(link.maxClicks)} />
            <Fact term="Password" value={link.hasPassword ? "Required" : "None"} />
            <Fact term="By" value={link.creator.label ?? "(deleted account)"} />
          </dl>
          <TagList tags={link.tags} />
          {link.iosUrl && <p class="full-target">iPhone and iPad: {link.iosUrl}</p>}
          {link.androidUrl && <p class="full-target">Android: {link.androidUrl}</p>}
          {removal && (
            <p class="removal" data-testid="removal">
              {removal}
            </p>
          )}
          <div class="actions">
            <CopyButton text={link.shortUrl} />
            {!link.disabled && (
              <a class="button secondary" href={`#/links/${encodeURIComponent(link.code)}/edit`}>
                Edit
              </a>
            )}
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              Delete
            </button>
          </div>
          <FormError message={error} />
        </div>
        <QrCode link={link} />
      </div>
      {deleting && <ConfirmDelete link={link} onConfirm={() => void remove()} onCancel={() => setDeleting(false)} />}
    </div>
  );
}

/** A short URL that a narrow screen breaks before its code, never inside it. */
function ShortUrl({ url }: { url: string }) {
  const slash = url.lastIndexOf("/") + 1;
  return (
    <>
      {url.slice(0, slash)}
      <wbr />
      {url.slice(slash)}
    </>
  );
}

function Fact({ term, value, testId }: { term: string; value: string; testId?: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
