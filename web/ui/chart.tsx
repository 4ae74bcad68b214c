// A per-day bar chart (uPlot) in the page's colours, with the same figures as a table for those
// who cannot see it.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatDay } from "./dates";

export interface DayValue {
  date: string;
  value: number;
}

const HEIGHT = 220;

export function DailyChart({ title, days }: { title: string; days: DayValue[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current!;
    const css = getComputedStyle(document.documentElement);
    const ink = css.getPropertyValue("--muted").trim();
    const accent = css.getPropertyValue("--accent").trim();
    const grid = css.getPropertyValue("--line").trim();
    const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: el.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [axis, { ...axis, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }],
        series: [
          {},
          { label: title, stroke: accent, fill: accent, points: { show: false }, paths: uPlot.paths.bars!({ size: [0.7, 24] }) },
        ],
      },
      [days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000), days.map((d) => d.value)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, title]);
  const total = days.reduce((n, d) => n + d.value, 0);
  return (
    <figure class="chart">
      <figcaption>
        {title}: {total} in {days.length} days
      </figcaption>
      <div ref={box} role="img" aria-label={`${title}, bar chart: ${total} in the last ${days.length} days`} />
      <details>
        <summary>Show as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{formatDay(d.date)}</td>
                <td>{d.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
