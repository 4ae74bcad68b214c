// A per-day chart (uPlot) in the page's colours (the theme's, read again when it changes): bars for one series, optionally a line for another,
// with the same figures as a table for those who cannot see it.
import { useEffect, useRef, useState } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatDay } from "./dates";

/** Series is one figure per day, in the order of the chart's dates. */
export interface Series {
  label: string;
  values: number[];
}

const HEIGHT = 220;
const DAY_S = 24 * 60 * 60;
/** Spaces between the day axis's ticks: whole days, weeks, about months. */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91, 182].map((days) => days * DAY_S);

/** The colour scheme the page is drawn in; it changes when the system's does, and the charts redraw in its colours. */
function useColorScheme(): "light" | "dark" {
  const query = matchMedia("(prefers-color-scheme: dark)");
  const [dark, setDark] = useState(query.matches);
  useEffect(() => {
    const on = (e: MediaQueryListEvent) => setDark(e.matches);
    query.addEventListener("change", on);
    return () => query.removeEventListener("change", on);
  }, []);
  return dark ? "dark" : "light";
}

export function DailyChart({ title, dates, bars, line }: { title: string; dates: string[]; bars: Series; line?: Series }) {
  const box = useRef<HTMLDivElement>(null);
  const scheme = useColorScheme();
  useEffect(() => {
    const el = box.current!;
    const css = getComputedStyle(document.documentElement);
    const ink = css.getPropertyValue("--muted").trim();
    const accent = css.getPropertyValue("--accent").trim();
    const second = css.getPropertyValue("--second").trim();
    const grid = css.getPropertyValue("--line").trim();
    const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const series: uPlot.Series[] = [
      {},
      { label: bars.label, stroke: accent, width: 0, fill: accent, points: { show: false }, paths: uPlot.paths.bars!({ size: [0.7, 24] }) },
    ];
    if (line) series.push({ label: line.label, stroke: second, width: 2, points: { show: dates.length <= 31, fill: second } });
    const plot = new uPlot(
      {
        width: el.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        // Days are UTC days: ticks fall on whole days, half a day of room either side for the end bars.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        scales: {
          x: { time: true, range: (_u, min, max) => [min - DAY_S / 2, max + DAY_S / 2] },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          { ...axis, incrs: DAY_STEPS, values: (_u, ticks) => ticks.map((t) => formatDay(new Date(t * 1000).toISOString().slice(0, 10))) },
          { ...axis, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] },
        ],
        series,
      },
      [dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000), bars.values, ...(line ? [line.values] : [])],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [dates, bars, line, scheme]);
  const total = (s: Series) => s.values.reduce((n, v) => n + v, 0);
  const summary = [bars, ...(line ? [line] : [])].map((s) => `${s.label.toLowerCase()}: ${total(s)}`).join(", ");
  return (
    <figure class="chart">
      <figcaption>
        {title}
        {line && (
          <span class="legend" aria-hidden="true">
            <span class="key bars">{bars.label}</span>
            <span class="key line">{line.label}</span>
          </span>
        )}
      </figcaption>
      <div ref={box} role="img" aria-label={`${title}, chart of ${dates.length} days: ${summary}`} />
      <details>
        <summary>Show as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">{bars.label}</th>
              {line && <th scope="col">{line.label}</th>}
            </tr>
          </thead>
          <tbody>
            {dates.map((d, i) => (
              <tr key={d}>
                <td>{formatDay(d)}</td>
                <td>{bars.values[i]}</td>
                {line && <td>{line.values[i]}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
