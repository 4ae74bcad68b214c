// One link: its target and clicks, its daily clicks as a chart, and where they came from.
import { call, type ClickHistory, type LinkStats } from "./api";
import { DailyChart } from "./chart";
import { CopyButton } from "./copy-button";
import { FormError } from "./field";
import { useLoad } from "./use-load";

export function LinkPage({ code }: { code: string }) {
  const path = encodeURIComponent(code);
  const stats = useLoad(() => call<LinkStats>("GET", `/${path}/stats`), code);
  const history = useLoad(() => call<ClickHistory>("GET", `/urls/${path}/clicks?days=30`), code);
  const shortUrl = `${location.origin}/${path}`;

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
      {history.state === "error" && <p class="muted">Click history is not available: {history.message}</p>}
      {history.state === "ready" && (
        <>
          <DailyChart title="Clicks per day" days={history.data.days.map((d) => ({ date: d.date, value: d.clicks }))} />
          <div class="row">
            <Breakdown title="Referrers" rows={history.data.referrers.map((r) => [r.host, r.clicks])} />
            <Breakdown title="Devices" rows={history.data.devices.map((d) => [d.kind, d.clicks])} />
          </div>
        </>
      )}
    </section>
  );
}

function Breakdown({ title, rows }: { title: string; rows: [string, number][] }) {
  return (
    <section class="card">
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <table>
          <tbody>
            {rows.map(([name, n]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
