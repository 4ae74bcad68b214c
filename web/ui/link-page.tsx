// One link: its target and clicks, its settings, and its click report over a range of days, with a CSV download.
import { useState } from "preact/hooks";
import { call, download, type ClickReport, type LinkStats } from "./api";
import { ClickReportView } from "./click-report-view";
import { CopyButton } from "./copy-button";
import { DateRangePicker, lastDays, rangeQuery } from "./date-range";
import { FormError } from "./field";
import { LinkSettings } from "./link-settings";
import { useLoad } from "./use-load";
import { usePageTitle } from "./page-title";

export function LinkPage({ code }: { code: string }) {
  usePageTitle(code);
  const path = encodeURIComponent(code);
  const [range, setRange] = useState(() => lastDays(30));
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const query = rangeQuery(range);
  // Read again with each report, so the all-time count never lags the report beside it.
  const stats = useLoad(() => call<LinkStats>("GET", `/${path}/stats`), `${code}?${query}`);
  const report = useLoad(() => call<ClickReport>("GET", `/urls/${path}/clicks?${query}`), `${code}?${query}`);
  const shortUrl = `${location.origin}/${path}`;
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
        {shortUrl}
      </h1>
      {stats.state === "error" && <FormError message={stats.message} />}
      {stats.state === "ready" && (
        <div class="card">
          <p class="target">{stats.data.originalUrl}</p>
          <p>
            <strong>{stats.data.clicks}</strong> clicks in all
          </p>
          <CopyButton text={shortUrl} />
        </div>
      )}
      <LinkSettings code={code} />
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
