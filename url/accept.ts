// Content negotiation for GET /:code: browsers get a redirect, API clients get JSON. Not `negotiator`:
// it breaks a tie by the ranges' order in the header, which RFC 9110 does not rank by (§12.4.2, §12.5.1),
// and takes q=2 (§12.4.2 allows 0 to 1), so three cases of accept.test.ts would answer HTML, not JSON.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

// RFC 9110 §12.4.2: a qvalue is 0 to 1 with at most three decimals.
const QVALUE = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;

/**
 * prefersHtml tells whether an Accept header ranks text/html strictly above application/json, as a
 * browser navigation does. No header, a tie (e.g. "*\/*") or anything unparsable means JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const ranges = parseAccept(accept);
  return quality(ranges, "text", "html") > quality(ranges, "application", "json");
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of header.split(",")) {
    const [mediaType, ...params] = element.split(";").map((part) => part.trim().toLowerCase());
    const match = /^([a-z0-9!#$%&'*+.^_`|~-]+)\/([a-z0-9!#$%&'*+.^_`|~-]+)$/.exec(mediaType);
    if (match === null) continue;
    let q = 1;
    for (const param of params) {
      const [name, value = ""] = param.split("=").map((s) => s.trim());
      if (name === "q") q = QVALUE.test(value) ? Number(value) : NaN;
    }
    // A range with a malformed weight is ignored rather than guessed at.
    if (!Number.isNaN(q)) ranges.push({ type: match[1], subtype: match[2], q });
  }
  return ranges;
}

// The weight of the most specific range matching type/subtype (exact > type/* > */*), or 0.
function quality(ranges: MediaRange[], type: string, subtype: string): number {
  let best = { specificity: -1, q: 0 };
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === "*"
          ? 1
          : range.type === "*" && range.subtype === "*"
            ? 0
            : -1;
    if (specificity < 0) continue;
    if (specificity > best.specificity || (specificity === best.specificity && range.q > best.q)) {
      best = { specificity, q: range.q };
    }
  }
  return best.q;
}
