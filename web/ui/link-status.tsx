// What state a link is in (disabled, flagged, expired, at its click limit, or active) and when the daily
// cleanup will remove it, by the url service's own retention rules (url/retention.ts).
import { EXPIRED_KEPT_MS, removalDate, STALE_AFTER_MS } from "../../url/retention";
import type { Link } from "./api";
import { formatDate } from "./dates";

/** One state a link can be in, with a word for the badge and a sentence for whoever reads on. */
export interface LinkState {
  kind: "disabled" | "flagged" | "expired" | "limit" | "active";
  label: string;
  explanation: string;
}

/** linkStates lists every state that applies to `link`; "active" only when none of the others does. */
export function linkStates(link: Link, now = Date.now()): LinkState[] {
  const states: LinkState[] = [];
  if (link.disabled) {
    const why = link.disabledReason ? `: ${link.disabledReason}` : "";
    states.push({ kind: "disabled", label: "Disabled", explanation: `The site's admins disabled this link${why}. It leads nowhere.` });
  }
  if (link.expiresAt !== null && Date.parse(link.expiresAt) <= now) {
    states.push({ kind: "expired", label: "Expired", explanation: `Expired ${formatDate(link.expiresAt)}: visitors are told so.` });
  }
  if (link.maxClicks !== null && link.clicks >= link.maxClicks) {
    states.push({ kind: "limit", label: "Limit reached", explanation: `It has had its ${link.maxClicks} clicks and sends no one on.` });
  }
  if (link.flagged) {
    states.push({
      kind: "flagged",
      label: "Flagged",
      explanation: "Marked by the site's admins: visitors see a warning before they go on.",
    });
  }
  return states.length > 0 ? states : [{ kind: "active", label: "Active", explanation: "Visitors are sent on." }];
}

export function StatusBadges({ link }: { link: Link }) {
  return (
    <span class="badges">
      {linkStates(link).map((s) => (
        <span key={s.kind} class={`badge ${s.kind}`} title={s.explanation} data-testid="status">
          {s.label}
        </span>
      ))}
    </span>
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When and why the daily cleanup will remove `link`; null when it never will. */
function removalOf(link: Link) {
  return removalDate({
    clicks: link.clicks,
    createdAt: new Date(link.createdAt),
    expiresAt: link.expiresAt === null ? null : new Date(link.expiresAt),
  });
}

/** The removal in a few words, for the list: "Removed Feb 24, 2027 unless clicked". */
export function removalShort(link: Link): string | null {
  const removal = removalOf(link);
  if (removal === null) return null;
  return `Removed ${formatDate(removal.at.toISOString())}${removal.reason === "never-clicked" ? " unless clicked" : ""}`;
}

/** The removal in a sentence that gives the rule, for the details page. */
export function removalNote(link: Link): string | null {
  const removal = removalOf(link);
  if (removal === null) return null;
  const on = formatDate(removal.at.toISOString());
  return removal.reason === "never-clicked"
    ? `Removed on ${on} unless someone clicks it first: links nobody clicks are deleted ${STALE_AFTER_MS / DAY_MS} days after they are made.`
    : `Removed on ${on}: expired links are deleted ${EXPIRED_KEPT_MS / DAY_MS} days after they expire (change the expiry to keep it).`;
}
