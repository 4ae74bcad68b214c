// The visitor pages of abuse handling, on url/visitor-page.ts's mechanism: the disabled page and the
// password page with a report link, the warning page of a flagged link, and the report form.
import { PAGES, type VisitorPage } from "../visitor-page";

/** The query parameter of a visit that continued past a flagged link's warning. */
export const CONTINUE_PARAM = "continue";

/** reportPath is where a visitor reports `code` (GET: the form; POST: the report). */
export function reportPath(code: string): string {
  return `/${code}/report`;
}

/** withReportLink adds "Report this link" under a page about `code`. */
export function withReportLink(page: VisitorPage, code: string): VisitorPage {
  return { ...page, links: [...(page.links ?? []), { href: reportPath(code), text: "Report this link" }] };
}

/** The host a target leads to, as a visitor should read it (no user, port or path to distract). */
function hostOf(target: string): string {
  return new URL(target).hostname;
}

/**
 * warningPage is what a browser sees before a flagged link's target: where it leads, a link that goes
 * on (the same short link with ?continue=1, its other parameters kept so a campaign still counts), one
 * that does not, and a report link. Only the visit that continues counts a click.
 */
export function warningPage(code: string, target: string, search: string): VisitorPage {
  const query = new URLSearchParams(search);
  query.set(CONTINUE_PARAM, "1");
  return {
    status: 200,
    title: `You are leaving for ${hostOf(target)}`,
    paragraphs: [
      "The site's administrators marked this link with a warning: it may not lead where it claims.",
      `It goes to ${hostOf(target)}. Go on only if you trust that site and expected to visit it.`,
    ],
    links: [
      { href: `/${code}?${query.toString()}`, text: `Continue to ${hostOf(target)}` },
      { href: "/", text: "Go back" },
      { href: reportPath(code), text: "Report this link" },
    ],
  };
}

/** reportPage is the form a visitor reports `code` with. */
export function reportPage(code: string): VisitorPage {
  return {
    status: 200,
    title: "Report a link",
    paragraphs: [`Tell the site's administrators what is wrong with /${code}. Your report is anonymous.`],
    form: "report",
  };
}

/** pageWithReport is the page of a disabled or protected link, with a report link. */
export function pageWithReport(gone: "disabled" | "password_required", code: string): VisitorPage {
  return withReportLink(PAGES[gone], code);
}

/** continued tells whether a visit's query says it continued past the warning. */
export function continued(search: string): boolean {
  return new URLSearchParams(search).get(CONTINUE_PARAM) === "1";
}
