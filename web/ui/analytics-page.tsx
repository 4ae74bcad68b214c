// Analytics: the chosen workspace's own figures (clicks, where they came from, the busiest links, links
// created per day). The instance's totals (the analytics service) belong to nobody, so only site admins
// see them, under a heading that says so. Visitors who are not signed in are asked to log in.
import { useMemo, useState } from "preact/hooks";
import { call, type AccountClicks, type Daily, type Summary } from "./api";
import type { LinksCreated } from "../../url/links-created-types";
import { DailyChart } from "./chart";
import { ClickReportView } from "./click-report-view";
import { DateRangePicker, lastDays, rangeQuery } from "./date-range";
import { FormError } from "./field";
import { usePageTitle } from "./page-title";
import { useSession } from "./session";
import { useSiteAdmin } from "./site-admin";
import { useLoad } from "./use-load";
import { inWorkspace, useWorkspaces } from "./workspace";

export function AnalyticsPage() {
  usePageTitle("Analytics");
  const session = useSession();
  const admin = useSiteAdmin();
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title" tabIndex={-1}>
        Analytics
      </h1>
      {session ? (
        <>
          <WorkspaceAnalytics />
          {admin && <InstanceWide />}
        </>
      ) : (
        <p class="notice">
          <a href="#/login">Log in</a> or <a href="#/signup">create an account</a> to see how often your links are opened, from where, and
          which ones most.
        </p>
      )}
    </section>
  );
}

function WorkspaceAnalytics() {
  const workspace = useWorkspaces().current;
  const [range, setRange] = useState(() => lastDays(30));
  // The workspace is part of the key: choosing another in the header loads its figures.
  const query = inWorkspace(`?${rangeQuery(range)}`);
  const report = useLoad(() => call<AccountClicks>("GET", `/analytics/clicks${query}`), query);
  const created = useLoad(() => call<LinksCreated>("GET", `/analytics/links-created${query}`), query);
  const name = workspace === undefined || workspace.personal ? "your links" : `the links of ${workspace.name}`;
  return (
    <section aria-labelledby="workspace-analytics">
      <h2 id="workspace-analytics">{workspace === undefined || workspace.personal ? "Your links" : `${workspace.name}'s links`}</h2>
      <DateRangePicker range={range} onChange={setRange} />
      {report.state === "loading" && <p class="muted">Loading…</p>}
      {report.state === "error" && <FormError message={report.message} />}
      {report.state === "ready" && (
        <>
          <ClickReportView report={report.data} subject={name} />
          {report.data.topLinks.length > 0 && <TopLinks report={report.data} />}
        </>
      )}
      {created.state === "error" && <FormError message={created.message} />}
      {created.state === "ready" && <CreatedChart created={created.data} />}
    </section>
  );
}

function TopLinks({ report }: { report: AccountClicks }) {
  return (
    <section class="card" aria-labelledby="top-links">
      <h2 id="top-links">Top links</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Link</th>
            <th scope="col">Clicks</th>
            <th scope="col">Unique visitors</th>
          </tr>
        </thead>
        <tbody>
          {report.topLinks.map((l) => (
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
  );
}

function CreatedChart({ created }: { created: LinksCreated }) {
  const dates = useMemo(() => created.days.map((d) => d.date), [created]);
  const bars = useMemo(() => ({ label: "Links created", values: created.days.map((d) => d.created) }), [created]);
  return <DailyChart title="Links created per day" dates={dates} bars={bars} />;
}

/** The analytics service's figures over every account, for site admins only. */
function InstanceWide() {
  const summary = useLoad(() => call<Summary>("GET", "/analytics/summary"), "summary");
  const daily = useLoad(() => call<Daily>("GET", "/analytics/daily?days=30"), "daily");
  const dates = useMemo(() => (daily.state === "ready" ? daily.data.days.map((d) => d.date) : []), [daily]);
  const created = useMemo(
    () => ({ label: "Links created", values: daily.state === "ready" ? daily.data.days.map((d) => d.urlsCreated) : [] }),
    [daily],
  );
  return (
    <section aria-labelledby="instance-wide" class="instance">
      <h2 id="instance-wide">Whole instance</h2>
      <p class="muted">Every account's links together, not only yours. Only site admins see this section.</p>
      {summary.state === "error" && <FormError message={summary.message} />}
      {summary.state === "ready" && (
        <dl class="facts card" aria-label="Whole instance, all time">
          <div>
            <dt>Links ever created</dt>
            <dd>{summary.data.linksCreated}</dd>
          </div>
          <div>
            <dt>Links now</dt>
            <dd>{summary.data.activeLinks}</dd>
          </div>
          <div>
            <dt>Clicks on them</dt>
            <dd>{summary.data.totalClicks}</dd>
          </div>
        </dl>
      )}
      {daily.state === "error" && <FormError message={daily.message} />}
      {daily.state === "ready" && <DailyChart title="Links created per day, whole instance" dates={dates} bars={created} />}
    </section>
  );
}
