// The small pages a browser gets from GET /:code when a link cannot be followed: same origin, no
// third-party assets, no target URL, and the status an API client would get. Another state (issue 30's
// disabled and warning pages) adds its page to PAGES, or builds a VisitorPage and calls writeVisitorPage.
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Gone } from "./resolution";

/** VisitorPage is what one page says: its status and title, plain-text paragraphs, and its form, if any. */
export interface VisitorPage {
  status: number;
  title: string;
  paragraphs: string[];
  /**
   * "password": a password field that POSTs to /:code/unlock and, when right, goes on to the target.
   * "report": a reason and details that POST to the page's own path (/:code/report).
   */
  form?: "password" | "report";
  /** Links under the text, such as the warning page's continue and back, or "Report this link". */
  links?: { href: string; text: string }[];
}

/** PAGES are the words for each reason a code leads nowhere; the statuses match the API's errors. */
export const PAGES: Record<Gone, VisitorPage> = {
  not_found: {
    status: 404,
    title: "Link not found",
    paragraphs: [
      "There is no short link at this address. It may have been mistyped, or its owner deleted it.",
      "Check the address, or ask whoever shared it for a new one.",
    ],
  },
  expired: {
    status: 404,
    title: "This link has expired",
    paragraphs: ["Its owner set it to stop working after a date that has passed.", "Ask whoever shared it for a new one."],
  },
  limit_reached: {
    status: 404,
    title: "This link is no longer available",
    paragraphs: ["It has been opened as many times as its owner allowed.", "Ask whoever shared it for a new one."],
  },
  password_required: {
    status: 403,
    title: "This link is protected by a password",
    paragraphs: ["Enter the password you were given with the link to continue."],
    form: "password",
  },
  disabled: {
    status: 403,
    title: "This link has been disabled",
    paragraphs: [
      "The site's administrators disabled this link because it was used for abuse, such as phishing or malware.",
      "It does not lead anywhere any more.",
    ],
  },
};

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
main { max-width: 28rem; padding: 2rem 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 0.75rem; }
p { margin: 0 0 0.75rem; }
form { display: grid; gap: 0.5rem; margin-top: 1rem; }
input, button, select, textarea { font: inherit; padding: 0.55rem 0.7rem; border-radius: 6px; }
input, select, textarea { border: 1px solid GrayText; }
.links { list-style: none; padding: 0; margin: 1.25rem 0 0; display: flex; gap: 1.25rem; flex-wrap: wrap; }
button { border: 0; background: #2563eb; color: #fff; cursor: pointer; }
button:disabled { opacity: 0.6; cursor: progress; }
[role="alert"] { color: #b91c1c; min-height: 1.5em; }
@media (prefers-color-scheme: dark) { [role="alert"] { color: #fca5a5; } }
`;

/**
 * What both forms' scripts do on submit: post the fields as JSON to `url`, let `done` act on a
 * successful answer (it says whether it did), else show the message for the status and let the visitor
 * try again (in the password box, if the form has one).
 */
const POST_FORM = `
function postForm(form, out, url, fields, done, failures) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    out.textContent = "";
    try {
      const resp = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(fields()),
        credentials: "omit",
      });
      if (resp.ok && (await done(resp))) return;
      out.textContent = failures[resp.status] ?? "Something went wrong. Try again.";
    } catch {
      out.textContent = "Could not reach the server. Check your connection and try again.";
    }
    button.disabled = false;
    form.querySelector("input")?.select();
  });
}
`;

/**
 * The password form's script. It posts to this page's own path plus "/unlock" (and its query, so a QR
 * scan or a campaign is still counted as one), then replaces the page with the target it is given.
 */
const PASSWORD_SCRIPT = `${POST_FORM}
const unlock = document.getElementById("unlock");
postForm(
  unlock,
  document.getElementById("unlock-error"),
  location.pathname.replace(/\\/$/, "") + "/unlock" + location.search,
  () => ({ password: unlock.elements.password.value }),
  async (resp) => {
    const body = await resp.json().catch(() => ({}));
    if (typeof body.url !== "string") return false;
    location.replace(body.url);
    return true;
  },
  {
    403: "That password is not right. Try again.",
    429: "Too many attempts. Wait a few minutes, then try again.",
    404: "This link is no longer available.",
  },
);
`;

/** The report form's script: it posts the reason and details as JSON to this page's own path. */
const REPORT_SCRIPT = `${POST_FORM}
const report = document.getElementById("report");
postForm(
  report,
  document.getElementById("report-status"),
  location.pathname,
  () => ({ reason: report.elements.reason.value, details: report.elements.details.value }),
  async () => {
    report.replaceWith(Object.assign(document.createElement("p"), { textContent: "Thank you. The site's administrators will look at this link." }));
    return true;
  },
  {
    429: "Too many reports from your network. Try again later.",
    404: "There is no such link.",
  },
);
`;

/** A CSP source for an inline block: its SHA-256, so nothing else inline can run. */
function sourceHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
}

/** What the pages may load: their own inline style and script, and requests to this origin. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${sourceHash(STYLE)}`,
  `script-src ${sourceHash(PASSWORD_SCRIPT)} ${sourceHash(REPORT_SCRIPT)}`,
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** escapeHtml makes text safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const PASSWORD_FORM = `
<form id="unlock" method="post">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="off" required autofocus aria-describedby="unlock-error">
  <button type="submit">Open link</button>
  <p id="unlock-error" role="alert"></p>
</form>
<noscript><p>Checking the password needs JavaScript; turn it on and reload this page.</p></noscript>
<script>${PASSWORD_SCRIPT}</script>`;

const REPORT_FORM = `
<form id="report" method="post">
  <label for="reason">What is wrong with this link?</label>
  <select id="reason" name="reason" required>
    <option value="phishing">Phishing: it asks for passwords or payment details</option>
    <option value="malware">Malware: it downloads something harmful</option>
    <option value="spam">Spam</option>
    <option value="illegal">Illegal content</option>
    <option value="other">Something else</option>
  </select>
  <label for="details">Details (optional)</label>
  <textarea id="details" name="details" rows="4" maxlength="2000"></textarea>
  <button type="submit">Send report</button>
  <p id="report-status" role="alert"></p>
</form>
<noscript><p>Sending a report needs JavaScript; turn it on and reload this page.</p></noscript>
<script>${REPORT_SCRIPT}</script>`;

/** The page's links, as a list under its text. */
function renderLinks(links: VisitorPage["links"]): string {
  if (links === undefined || links.length === 0) return "";
  return `\n<ul class="links">${links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></li>`).join("")}</ul>`;
}

/** renderVisitorPage is the page's whole HTML document. */
export function renderVisitorPage(page: VisitorPage): string {
  const paragraphs = page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(page.title)}</h1>
${paragraphs}${page.form === "password" ? PASSWORD_FORM : page.form === "report" ? REPORT_FORM : ""}${renderLinks(page.links)}
</main>
</body>
</html>
`;
}

/** The rendered pages for each Gone, built once. */
const RENDERED = new Map(Object.entries(PAGES).map(([gone, page]) => [gone, renderVisitorPage(page)]));

/**
 * writeVisitorPage answers a browser with a page and its status. Never cached (the link may change),
 * not framed, sending no Referer onward. HEAD gets the same headers and no body.
 */
export function writeVisitorPage(resp: ServerResponse, page: VisitorPage, head: boolean, html = renderVisitorPage(page)): void {
  resp.writeHead(page.status, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(html),
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  });
  resp.end(head ? undefined : html);
}

/** writeGonePage answers a browser with the page for why a code leads nowhere. */
export function writeGonePage(resp: ServerResponse, gone: Gone, head: boolean): void {
  writeVisitorPage(resp, PAGES[gone], head, RENDERED.get(gone));
}
