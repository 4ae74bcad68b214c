// GET /urls/:code/clicks/export: CSV that a CSV library reads back to the JSON report's figures.
import { parse } from "csv-parse/sync";
import { expect, it } from "vitest";
import { describeLocal, expectErrorResponse } from "../local/testing";
import type { ClickReport } from "./click-report-types";
import { db } from "./db";
import { serveApiForThisFile } from "./__tests__/helpers";
import { USER_AGENTS } from "./__tests__/user-agents";

interface CsvRow {
  date: string;
  dimension: string;
  value: string;
  clicks: string;
}

describeLocal("GET /urls/:code/clicks/export over HTTP", () => {
  const api = serveApiForThisFile(2);

  async function shorten(target: string): Promise<string> {
    const resp = await api.call("POST", "/shorten", api.tokens[0], { url: target });
    return ((await resp.json()) as { code: string }).code;
  }

  it("streams date,dimension,value,clicks that parse back to the report's figures, day by day", async () => {
    const code = await shorten("https://example.com/export");
    // Two past days across a month boundary, then today's clicks through the API.
    await db.exec`
      INSERT INTO url_click_facts (url_id, day, host, device, country, browser, os, source, campaign, clicks, visitors)
      SELECT id, v.day::date, v.host, 'desktop', 'DE', 'Firefox', 'Windows', 'link', v.campaign, v.clicks, 1
      FROM urls, (VALUES ('2026-04-30', 'news.example.com', 'a / b / c', 2), ('2026-05-01', '', '', 3)) AS v (day, host, campaign, clicks)
      WHERE code = ${code}`;
    for (const query of ["?qr=1", "?utm_source==HYPERLINK(%22https://evil.example%22)", ""]) {
      const resp = await api.call("GET", `/${code}${query}`, undefined, undefined, { "User-Agent": USER_AGENTS.mobile });
      expect(resp.status).toBe(200);
    }

    const old = await api.call("GET", `/urls/${code}/clicks/export?from=2026-04-30&to=2026-05-01`, api.tokens[0]);
    expect(old.status).toBe(200);
    expect(old.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(old.headers.get("content-disposition")).toBe(`attachment; filename="${code}-clicks-2026-04-30-to-2026-05-01.csv"`);
    const text = await old.text();
    expect(text.split("\n")[0]).toBe("date,dimension,value,clicks");
    const rows = parse(text, { columns: true }) as CsvRow[];
    expect(rows.filter((r) => r.date === "2026-04-30")).toEqual([
      { date: "2026-04-30", dimension: "browser", value: "Firefox", clicks: "2" },
      { date: "2026-04-30", dimension: "campaign", value: "a / b / c", clicks: "2" },
      { date: "2026-04-30", dimension: "country", value: "DE", clicks: "2" },
      { date: "2026-04-30", dimension: "device", value: "desktop", clicks: "2" },
      { date: "2026-04-30", dimension: "os", value: "Windows", clicks: "2" },
      { date: "2026-04-30", dimension: "referrer", value: "news.example.com", clicks: "2" },
      { date: "2026-04-30", dimension: "source", value: "link", clicks: "2" },
    ]);
    expect(rows.filter((r) => r.date === "2026-05-01" && r.dimension === "referrer")).toEqual([
      { date: "2026-05-01", dimension: "referrer", value: "(direct)", clicks: "3" },
    ]);

    // Today: every dimension's rows sum to the day's clicks, and agree with the JSON report.
    const csv = parse(await (await api.call("GET", `/urls/${code}/clicks/export?days=1`, api.tokens[0])).text(), {
      columns: true,
    }) as CsvRow[];
    const json = (await (await api.call("GET", `/urls/${code}/clicks?days=1`, api.tokens[0])).json()) as ClickReport;
    const clicksOf = (dimension: string) =>
      Object.fromEntries(csv.filter((r) => r.dimension === dimension).map((r) => [r.value, Number(r.clicks)]));
    expect(json.total).toBe(3);
    expect(clicksOf("source")).toEqual({ link: 2, qr: 1 });
    expect(clicksOf("browser")).toEqual(Object.fromEntries(json.browsers.map((b) => [b.name, b.clicks])));
    expect(clicksOf("country")).toEqual({ ZZ: 3 });
    // A campaign a visitor wrote as a formula reaches a spreadsheet as text.
    expect(clicksOf("campaign")).toEqual({ "(none)": 2, [`'=HYPERLINK("https://evil.example") / (not set) / (not set)`]: 1 });
  });

  it("answers an empty range with the header alone", async () => {
    const code = await shorten("https://example.com/export-empty");
    const resp = await api.call("GET", `/urls/${code}/clicks/export`, api.tokens[0]);
    expect(resp.status).toBe(200);
    expect(await resp.text()).toBe("date,dimension,value,clicks\n");
  });

  it("refuses bad ranges, other users' links and callers without a token, in Encore's error body", async () => {
    const code = await shorten("https://example.com/export-private");
    await expectErrorResponse(await api.call("GET", `/urls/${code}/clicks/export?days=0`, api.tokens[0]), 400, {
      code: "invalid_argument",
      message: "days must be a whole number from 1 to 366",
    });
    await expectErrorResponse(await api.call("GET", `/urls/${code}/clicks/export?from=2026-01-01`, api.tokens[0]), 400, {
      code: "invalid_argument",
      message: "from and to go together",
    });
    await expectErrorResponse(await api.call("GET", `/urls/${code}/clicks/export`, api.tokens[1]), 404, {
      code: "not_found",
      message: "URL not found",
    });
    expect((await api.call("GET", `/urls/${code}/clicks/export`)).status).toBe(401);
  });
});
