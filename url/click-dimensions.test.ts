// Every dimension a click records, counted exactly under concurrency: 2,000 visits at once, from
// several countries (by a trusted CDN header and by address), browsers, systems, sources and campaigns.
import http from "node:http";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeLocal } from "../local/testing";
import type { AccountClicks, ClickReport, NamedClicks } from "./click-report-types";
import { getStatus, serveApiForThisFile } from "./__tests__/helpers";
import { USER_AGENTS } from "./__tests__/user-agents";

/** Addresses and the country the shipped database places them in; null: no X-Forwarded-For, so loopback. */
const ADDRESSES: [string | null, string][] = [
  ["8.8.8.8", "US"],
  ["1.1.1.1", "AU"],
  ["81.2.69.142", "GB"],
  ["85.214.132.117", "DE"],
  ["133.11.0.1", "JP"],
  ["2001:67c:2e8::1", "NL"],
  [null, "ZZ"],
];

/** User-Agents and the families they count under; bots are nobody's unique visit. */
const AGENTS: { ua: string; browser: string; os: string; bot: boolean }[] = [
  { ua: USER_AGENTS.desktop, browser: "Chrome", os: "Linux", bot: false },
  { ua: USER_AGENTS.mobile, browser: "Safari", os: "iOS", bot: false },
  { ua: USER_AGENTS.tablet, browser: "Safari", os: "iOS", bot: false },
  {
    ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0",
    browser: "Firefox",
    os: "Windows",
    bot: false,
  },
  {
    ua: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    browser: "Chrome",
    os: "Android",
    bot: false,
  },
  {
    ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80",
    browser: "Microsoft Edge",
    os: "Windows",
    bot: false,
  },
  { ua: USER_AGENTS.bot, browser: "Googlebot", os: "(unknown)", bot: true },
  { ua: "curl/8.5.0", browser: "(unknown)", os: "(unknown)", bot: true },
];

/** The trusted header's values: a country it names wins; XX (CF-IPCountry's unknown) or none leaves it to the address. */
const HEADER_COUNTRIES = ["FR", "XX", null, null, "CA"];

/** The visit's own query, and the campaign it counts under. */
const QUERIES: [string, string][] = [
  ["", "(none)"],
  ["utm_source=newsletter&utm_medium=email&utm_campaign=spring", "newsletter / email / spring"],
  ["utm_campaign=launch", "(not set) / (not set) / launch"],
  ["utm_source=twitter", "twitter / (not set) / (not set)"],
];

const REFERERS: [string | undefined, string][] = [
  [undefined, "(direct)"],
  ["https://news.example.com/story?id=1", "news.example.com"],
];

const VISITS = 2000;

/** Tallies expected clicks per value, as the report lists them (most first, ties by name). */
function tally(values: string[]): NamedClicks[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([name, clicks]) => ({ name, clicks })).sort((a, b) => b.clicks - a.clicks || (a.name < b.name ? -1 : 1));
}

const sum = (rows: { clicks: number }[]) => rows.reduce((n, r) => n + r.clicks, 0);

describeLocal("click dimensions under 2,000 concurrent visits", () => {
  const api = serveApiForThisFile(1);

  beforeAll(() => {
    // The app sits behind one proxy the operator trusts, and a CDN's country header.
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    vi.stubEnv("TRUSTED_COUNTRY_HEADER", "CF-IPCountry");
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it("counts every visit once in every dimension, and each person (not bot) once per link and day", async () => {
    const codes: string[] = [];
    for (const target of ["https://example.com/one", "https://example.com/two"]) {
      const resp = await api.call("POST", "/shorten", api.tokens[0], { url: target });
      codes.push(((await resp.json()) as { code: string }).code);
    }
    const visits = Array.from({ length: VISITS }, (_, i) => {
      const [address, addressCountry] = ADDRESSES[i % ADDRESSES.length];
      const agent = AGENTS[Math.floor(i / 3) % AGENTS.length];
      const header = HEADER_COUNTRIES[i % HEADER_COUNTRIES.length];
      const [query, campaign] = QUERIES[Math.floor(i / 5) % QUERIES.length];
      const [referer, referrer] = REFERERS[i % REFERERS.length];
      const qr = i % 3 === 0;
      const params = [query, qr ? "qr=1" : ""].filter((p) => p !== "").join("&");
      return {
        code: codes[Math.floor(i / 2) % 2],
        path: `/${codes[Math.floor(i / 2) % 2]}${params ? `?${params}` : ""}`,
        headers: {
          "User-Agent": agent.ua,
          ...(address !== null && { "X-Forwarded-For": address }),
          ...(header !== null && { "CF-IPCountry": header }),
          ...(referer !== undefined && { Referer: referer }),
        },
        // Expected:
        country: header !== null && header !== "XX" ? header : addressCountry,
        person: agent.bot ? null : `${address ?? "127.0.0.1"} ${agent.ua}`,
        browser: agent.browser,
        os: agent.os,
        source: qr ? "qr" : "link",
        campaign,
        referrer,
      };
    });

    // All at once, over as many connections as a busy CDN edge would hold open: 2,000 connects at the
    // same instant overflow the listen backlog (511) and a loaded machine then resets some of them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 250 });
    try {
      const statuses = await Promise.all(visits.map((v) => getStatus(`${api.baseUrl}${v.path}`, v.headers, agent)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(VISITS);
    } finally {
      agent.destroy();
    }

    const accountResp = await api.call("GET", "/analytics/clicks?days=1", api.tokens[0]);
    expect(accountResp.status).toBe(200);
    const account = (await accountResp.json()) as AccountClicks;
    const reports: [ClickReport, typeof visits][] = [[account, visits]];
    for (const code of codes) {
      const resp = await api.call("GET", `/urls/${code}/clicks?days=1`, api.tokens[0]);
      const stats = (await (await api.call("GET", `/${code}/stats`)).json()) as { clicks: number };
      const own = visits.filter((v) => v.code === code);
      expect(stats.clicks).toBe(own.length);
      reports.push([(await resp.json()) as ClickReport, own]);
    }
    for (const [report, sent] of reports) {
      expect(report.total).toBe(sent.length);
      for (const split of [
        report.days,
        report.referrers,
        report.devices,
        report.countries,
        report.browsers,
        report.os,
        report.sources,
        report.campaigns,
      ]) {
        expect(sum(split)).toBe(sent.length);
      }
      expect(report.countries).toEqual(tally(sent.map((v) => v.country)));
      expect(report.browsers).toEqual(tally(sent.map((v) => v.browser)));
      expect(report.os).toEqual(tally(sent.map((v) => v.os)));
      expect(report.campaigns).toEqual(tally(sent.map((v) => v.campaign)));
      expect(report.referrers).toEqual(tally(sent.map((v) => v.referrer)).map(({ name, clicks }) => ({ host: name, clicks })));
      expect(report.sources).toEqual(["link", "qr"].map((name) => ({ name, clicks: sent.filter((v) => v.source === name).length })));
    }
    // Unique visitors: per link and day, the distinct (address, User-Agent) pairs that are not bots.
    const people = (sent: typeof visits) => new Set(sent.filter((v) => v.person !== null).map((v) => `${v.code} ${v.person}`)).size;
    for (const [report, sent] of reports) {
      expect(report.uniqueVisitors).toBe(people(sent));
      expect(report.days.at(-1)!.uniqueVisitors).toBe(people(sent));
    }
    expect(account.topLinks.map((l) => l.code).sort()).toEqual([...codes].sort());
    expect(sum(account.topLinks)).toBe(VISITS);
  });
});
