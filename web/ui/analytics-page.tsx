// App-wide figures: links created per day as a chart, and the totals.
import { call, type Daily, type Summary } from "./api";
import { DailyChart } from "./chart";
import { FormError } from "./field";
import { useLoad } from "./use-load";

export function AnalyticsPage() {
  const summary = useLoad(() => call<Summary>("GET", "/analytics/summary"), "summary");
  const daily = useLoad(() => call<Daily>("GET", "/analytics/daily?days=30"), "daily");
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title" tabIndex={-1}>
        Analytics
      </h1>
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
      {daily.state === "ready" && (
        <DailyChart title="Links created per day" days={daily.data.days.map((d) => ({ date: d.date, value: d.urlsCreated }))} />
      )}
    </section>
  );
}
