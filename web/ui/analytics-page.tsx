// Analytics: the signed-in user's clicks over all their links (with the busiest links), then the
// app-wide figures: links created per day and the totals.
import { useMemo, useState } from "preact/hooks";
import { call, type AccountClicks, type Daily, type Summary } from "./api";
import { DailyChart } from "./chart";
import { ClickReportView } from "./click-report-view";
import { DateRangePicker, lastDays, rangeQuery } from "./date-range";
import { FormError } from "./field";
import { useSession } from "./session";
import { useLoad } from "./use-load";

export function AnalyticsPage() {
  const session = useSession();
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title" tabIndex={-1}>
        Analytics
      </h1>
      {session ? (
        <YourClicks />
      ) : (
        <p class="notice">
          <a href="#/">Log in</a> to see where the clicks on your own links come from.
        </p>
      )}
      <AppWide />
    </section>
  );
}

function YourClicks() {
  const [range, setRange] = useState(() => lastDays(30));
  const query = rangeQuery(range);
  const report = useLoad(() => call<AccountClicks>("GET", `/analytics/clicks?${query}`), query);
  return (
    <section aria-labelledby="your-clicks">
      <h2 id="your-clicks">Your links</h2>
      <DateRangePicker range={range} onChange={setRange} />
      {report.state === "loading" && <p class="muted">Loading…</p>}
      {report.state === "error" && <FormError message={report.message} />}
      {report.state === "ready" && (
        <>
          <ClickReportView report={report.data} subject="your links" />
          {report.data.topLinks.length > 0 && (
            <section class="card">
              <h2>Top links</h2>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Link</th>
                    <th scope="col">Clicks</th>
                    <th scope="col">Unique visitors</th>
                  </tr>
                </thead>
                <tbody>
                  {report.data.topLinks.map((l) => (
                    <tr key={l.code}>
                      <th scope="row">
                        <a href={`#/links/${encodeURIComponent(l.code)}`}>/{l.code}</a>
                      </th>
                      <td>{l.clicks}</td>
                      <td>{l.uniqueVisitors}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
        </>
      )}
    </section>
  );
}

function AppWide() {
  const summary = useLoad(() => call<Summary>("GET", "/analytics/summary"), "summary");
  const daily = useLoad(() => call<Daily>("GET", "/analytics/daily?days=30"), "daily");
  const dates = useMemo(() => (daily.state === "ready" ? daily.data.days.map((d) => d.date) : []), [daily]);
  const created = useMemo(
    () => ({ label: "Links created", values: daily.state === "ready" ? daily.data.days.map((d) => d.urlsCreated) : [] }),
    [daily],
  );
  return (
    <section aria-labelledby="app-wide">
      <h2 id="app-wide">Across the app</h2>
      {summary.state === "error" && <FormError message={summary.message} />}
      {summary.state === "ready" && (
        <dl class="facts card">
          <div>
            <dt>Links created</dt>
            <dd>{summary.data.linksCreated}</dd>
          </div>
          <div>
            <dt>Active links</dt>
            <dd>{summary.data.activeLinks}</dd>
          </div>
          <div>
            <dt>Clicks</dt>
            <dd>{summary.data.totalClicks}</dd>
          </div>
        </dl>
      )}
      {daily.state === "error" && <FormError message={daily.message} />}
      {daily.state === "ready" && <DailyChart title="Links created per day" dates={dates} bars={created} />}
    </section>
  );
}
