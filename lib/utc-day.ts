// UTC calendar days as "YYYY-MM-DD", the key of every per-day count in the app.

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC calendar day of an instant as "YYYY-MM-DD". */
export function utcDay(instant: Date): string {
  if (!(instant instanceof Date) || Number.isNaN(instant.getTime())) {
    throw new TypeError(`expected a valid Date, got ${String(instant)}`);
  }
  return instant.toISOString().slice(0, 10);
}

/** isUtcDay tells whether `text` is a real calendar day written "YYYY-MM-DD" (not 2027-02-30). */
export function isUtcDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const instant = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(instant.getTime()) && instant.toISOString().slice(0, 10) === text;
}

/** addDays is the day `n` days after `day` (before, for a negative n). */
export function addDays(day: string, n: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/** daysBetween is how many days `to` is after `from` (negative when before). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}
