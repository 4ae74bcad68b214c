/** The UTC calendar day of an instant as "YYYY-MM-DD", the key of daily_stats. */
export function utcDay(instant: Date): string {
  if (!(instant instanceof Date) || Number.isNaN(instant.getTime())) {
    throw new TypeError(`expected a valid Date, got ${String(instant)}`);
  }
  return instant.toISOString().slice(0, 10);
}
