// A click report on a page: the totals, clicks and unique visitors per day, and each split as a
// ranked list with bars; or, before any click in the range, what will appear here.
import { useMemo } from "preact/hooks";
import type { ClickReport, NamedClicks } from "./api";
import { DailyChart } from "./chart";
import { formatDay } from "./dates";

const regionNames = new Intl.DisplayNames(undefined, { type: "region" });

/** A country as people read it: "Germany (DE)"; ZZ is the code for a country nobody could tell. */
function countryName(code: string): string {
  if (code === "ZZ") return "Unknown";
  if (code === "other") return "Other";
  try {
    return `${regionNames.of(code) ?? code} (${code})`;
  } catch {
    return code;
  }
}

const SOURCE_NAMES: Record<string, string> = { link: "Link", qr: "QR code scan" };
const DEVICE_NAMES: Record<string, string> = { desktop: "Desktop", mobile: "Phone", tablet: "Tablet", bot: "Bot or app" };

export function ClickReportView({ report, subject }: { report: ClickReport; subject: string }) {
  const dates = useMemo(() => report.days.map((d) => d.date), [report]);
  const bars = useMemo(() => ({ label: "Clicks", values: report.days.map((d) => d.clicks) }), [report]);
  const line = useMemo(() => ({ label: "Unique visitors", values: report.days.map((d) => d.uniqueVisitors) }), [report]);
  const span = `${formatDay(report.from)} to ${formatDay(report.to)}`;
  if (report.total === 0) {
    return (
      <section class="card empty" aria-label="No clicks yet">
        <h2>No clicks from {span}</h2>
        <p>
          When people open or scan {subject}, this page shows how many came each day and how many different people they were; which
          countries, sites, QR codes and campaigns they came from; and which browsers, systems and devices they used.
        </p>
      </section>
    );
  }
  const qr = report.sources.find((s) => s.name === "qr")?.clicks ?? 0;
  return (
    <>
      <dl class="facts card" aria-label={`Totals, ${span}`}>
        <div>
          <dt>Clicks</dt>
          <dd>{report.total}</dd>
        </div>
        <div>
          <dt>Unique visitors</dt>
          <dd>{report.uniqueVisitors}</dd>
        </div>
        <div>
          <dt>QR code scans</dt>
          <dd>{qr}</dd>
        </div>
      </dl>
      <DailyChart title="Clicks per day" dates={dates} bars={bars} line={line} />
      <div class="splits">
        <Ranked title="Countries" rows={report.countries} name={countryName} total={report.total} />
        <Ranked title="Referrers" rows={report.referrers.map((r) => ({ name: r.host, clicks: r.clicks }))} total={report.total} />
        <Ranked title="Browsers" rows={report.browsers} total={report.total} />
        <Ranked title="Operating systems" rows={report.os} total={report.total} />
        <Ranked
          title="Devices"
          rows={report.devices.map((d) => ({ name: d.kind, clicks: d.clicks }))}
          name={(n) => DEVICE_NAMES[n] ?? n}
          total={report.total}
        />
        <Ranked title="Sources" rows={report.sources} name={(n) => SOURCE_NAMES[n] ?? n} total={report.total} />
        <Ranked title="Campaigns" rows={report.campaigns} total={report.total} />
      </div>
      <p class="muted">
        Days are UTC. A unique visitor is a person (not a bot) counted once per link and day; the same person on two days counts twice.
      </p>
    </>
  );
}

/** One split, most clicks first, each value with its share as a bar and a percentage. */
function Ranked({
  title,
  rows,
  total,
  name = (n) => n,
}: {
  title: string;
  rows: NamedClicks[];
  total: number;
  name?: (n: string) => string;
}) {
  return (
    <section class="card ranked" aria-label={title}>
      <h2>{title}</h2>
      <table>
        <thead class="visually-hidden">
          <tr>
            <th scope="col">{title}</th>
            <th scope="col">Clicks</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const share = total === 0 ? 0 : (100 * r.clicks) / total;
            return (
              <tr key={r.name}>
                <th scope="row">
                  <span class="bar" style={{ width: `${share}%` }} aria-hidden="true" />
                  <span class="label">{name(r.name)}</span>
                </th>
                <td>{r.clicks}</td>
                <td class="share">{share < 1 && share > 0 ? "<1" : Math.round(share)}%</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
