// The days a click report covers: a few common spans at a click, or any two UTC days.
import { useEffect, useState } from "preact/hooks";

/** DayRange is a span of UTC days, both included, as "YYYY-MM-DD". */
export interface DayRange {
  from: string;
  to: string;
}

/** The longest span the API reports (from and to at most 400 days apart). */
const MAX_SPAN_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;
const PRESETS = [7, 30, 90, 365];

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** lastDays is the last `n` UTC days, today included. */
export function lastDays(n: number): DayRange {
  const today = Date.now();
  return { from: utcDay(today - (n - 1) * DAY_MS), to: utcDay(today) };
}

/** The query string the click endpoints take for a range. */
export function rangeQuery(range: DayRange): string {
  return `from=${range.from}&to=${range.to}`;
}

/** What is wrong with two typed days, or null when they make a range the API takes. */
function problem(from: string, to: string): string | null {
  if (from === "" || to === "") return "Choose both days.";
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS;
  if (span < 0) return "The first day must not be after the last.";
  if (span > MAX_SPAN_DAYS) return `Choose at most ${MAX_SPAN_DAYS} days apart.`;
  return null;
}

export function DateRangePicker({ range, onChange }: { range: DayRange; onChange: (range: DayRange) => void }) {
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  useEffect(() => {
    setFrom(range.from);
    setTo(range.to);
  }, [range.from, range.to]);
  const error = problem(from, to);
  const apply = (e: Event) => {
    e.preventDefault();
    if (error === null) onChange({ from, to });
  };
  const current = (n: number) => {
    const preset = lastDays(n);
    return preset.from === range.from && preset.to === range.to;
  };
  return (
    <form class="card date-range" onSubmit={apply} aria-label="Date range">
      <div class="presets" role="group" aria-label="Common ranges">
        {PRESETS.map((n) => (
          <button type="button" key={n} class="secondary" aria-pressed={current(n)} onClick={() => onChange(lastDays(n))}>
            {n === 365 ? "12 months" : `${n} days`}
          </button>
        ))}
      </div>
      <div class="range-days">
        <div class="field">
          <label for="range-from">From (UTC)</label>
          <input id="range-from" type="date" value={from} max={to} onInput={(e) => setFrom(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="range-to">To (UTC)</label>
          <input id="range-to" type="date" value={to} min={from} onInput={(e) => setTo(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={error !== null}>
          Show
        </button>
      </div>
      {error && (from !== range.from || to !== range.to) && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
