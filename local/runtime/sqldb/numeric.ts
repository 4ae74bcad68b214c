// Decimal strings as Encore's runtime prints them: its Decimal is an exact rational, so "1.50"
// becomes "1.5" and "2.00" becomes "2" (runtimes/core/src/api/pvalue.rs, Display for Decimal).

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** The canonical form of a decimal or scientific number string, or null when it is not one. */
export function canonicalDecimal(text: string): string | null {
  const m = DECIMAL_RE.exec(text.trim());
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const frac = m[3] ?? "";
  let digits = (m[2] + frac).replace(/^0+/, "");
  let exp = Number(m[4] ?? "0") - frac.length;
  if (digits === "") return "0";
  while (exp < 0 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exp++;
  }
  let body: string;
  if (exp >= 0) body = digits + "0".repeat(exp);
  else if (-exp >= digits.length) body = "0." + "0".repeat(-exp - digits.length) + digits;
  else body = digits.slice(0, exp) + "." + digits.slice(exp);
  return (m[1] === "-" ? "-" : "") + body;
}

/** Whether a canonical decimal is an integer within [min, max]. */
export function decimalFitsInt(canonical: string, min: bigint, max: bigint): boolean {
  if (canonical.includes(".")) return false;
  const v = BigInt(canonical);
  return v >= min && v <= max;
}
