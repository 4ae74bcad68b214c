// Bulk import and export over HTTP: 10,000 rows with 50 bad ones mixed in (each reported, the rest created
// whole, with their QR images and url-shortened events), the same file twice, other shorteners' exports,
// and 100,000 links exported as a stream with the process's memory growth measured.
import http from "node:http";
import { expect, it } from "vitest";
import { db as analyticsDb } from "../analytics/db";
import { describeLocal, drainTopic } from "../local/testing";
import { qrCodes } from "./bucket";
import { db } from "./db";
import { getStatus, serveApiForThisFile } from "./__tests__/helpers";

type Line = { row: number; code: string; existing?: true } | { row: number; error: { code: string; message: string } };

describeLocal("bulk import and export over HTTP", () => {
  const api = serveApiForThisFile(3);

  async function importCsv(csv: string, token = api.tokens[0]): Promise<{ status: number; lines: Line[]; type: string | null }> {
    const resp = await fetch(`${api.baseUrl}/urls/import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/csv" },
      body: csv,
    });
    const text = await resp.text();
    const lines =
      resp.status === 200
        ? text
            .trimEnd()
            .split("\n")
            .map((l) => JSON.parse(l) as Line)
        : [JSON.parse(text)];
    return { status: resp.status, lines, type: resp.headers.get("content-type") };
  }

  it("imports 10,000 rows with 50 bad ones mixed in: each bad one reported, every other created whole", async () => {
    const bad = new Set(Array.from({ length: 50 }, (_, i) => 37 + i * 199));
    const rows = ["url,alias,expiresAt,tags,maxClicks"];
    for (let i = 0; i < 10_000; i++) {
      const kind = i % 5;
      if (!bad.has(i)) rows.push(`https://example.com/bulk/${i},,,team;q${i % 4},`);
      else if (kind === 0) rows.push(`ftp://example.com/${i},,,,`);
      else if (kind === 1) rows.push(`https://example.com/${i},,yesterday,,`);
      else if (kind === 2) rows.push(`https://example.com/${i},,,,0`);
      else if (kind === 3) rows.push(`https://example.com/${i},,,bad tag!,`);
      else rows.push(`https://example.com/${i},shorten,,,`); // a reserved alias
    }
    const { status, lines, type } = await importCsv(rows.join("\n") + "\n");
    expect({ status, type }).toEqual({ status: 200, type: "application/x-ndjson; charset=utf-8" });
    expect(lines.map((l) => l.row)).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 2));
    const errors = lines.filter((l) => "error" in l);
    expect(errors.map((l) => l.row - 2)).toEqual([...bad]);
    for (const l of errors) expect((l as { error: { code: string } }).error.code).toBe("invalid_argument");

    const codes = lines.filter((l): l is { row: number; code: string } => "code" in l).map((l) => l.code);
    expect(codes).toHaveLength(9_950);
    const stored = await db.queryRow<{ links: number; tagged: number }>`
      SELECT count(*)::int AS links, count(*) FILTER (WHERE tags @> ARRAY['team'])::int AS tagged
      FROM urls WHERE code = ANY(${codes}::text[])
    `;
    expect(stored).toEqual({ links: 9_950, tagged: 9_950 });
    // Each created link's url-shortened event reached the analytics service, and no bad row's did.
    await drainTopic("url-shortened");
    const counted = await analyticsDb.queryRow<{
      n: number;
    }>`SELECT count(*)::int AS n FROM counted_urls WHERE code = ANY(${codes}::text[])`;
    expect(counted!.n).toBe(9_950);
    for (const code of [codes[0], codes[4_000], codes[9_949]]) expect(await qrCodes.exists(`${code}.png`)).toBe(true);
  });

  it("creates nothing twice when the same file is imported again, and refuses another's alias", async () => {
    const alias = `imp-${Date.now()}`;
    const csv = `url,alias,tags\nhttps://example.com/once,${alias},a;b\nhttps://example.com/twice,${alias}-2,\n`;
    const first = await importCsv(csv);
    expect(first.lines).toEqual([
      { row: 2, code: alias },
      { row: 3, code: `${alias}-2` },
    ]);
    const again = await importCsv(csv);
    expect(again.lines).toEqual([
      { row: 2, code: alias, existing: true },
      { row: 3, code: `${alias}-2`, existing: true },
    ]);
    const count = await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM urls WHERE code LIKE ${alias + "%"}`;
    expect(count!.n).toBe(2);
    const other = await importCsv(csv, api.tokens[1]);
    expect(other.lines.map((l) => ("error" in l ? l.error : l))).toEqual([
      { code: "already_exists", message: "alias is already taken" },
      { code: "already_exists", message: "alias is already taken" },
    ]);
  });

  it("reads Bitly, Shlink and Kutt exports by their header rows", async () => {
    const n = Date.now();
    const bitly = `id,link,custom_bitlinks,long_url,title,tags,created_at\nbit.ly/b${n},https://bit.ly/b${n},,https://example.com/from-bitly,Title,promo,2024-01-01\n`;
    const shlink = `createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\n2024-01-01T00:00:00+00:00,,s${n},https://s.test/s${n},https://example.com/from-shlink,,one|two,3\n`;
    const kutt = `address,target,description,expire_in,visit_count,link\nk${n},https://example.com/from-kutt,,2031-01-01T00:00:00Z,0,https://kutt.it/k${n}\n`;
    for (const [csv, code] of [
      [bitly, `b${n}`],
      [shlink, `s${n}`],
      [kutt, `k${n}`],
    ]) {
      expect((await importCsv(csv)).lines).toEqual([{ row: 2, code }]);
    }
    const rows = await db.queryAll<{ code: string; original_url: string; tags: string[]; expires_at: Date | null }>`
      SELECT code, original_url, tags, expires_at FROM urls WHERE code = ANY(${[`b${n}`, `s${n}`, `k${n}`]}::text[]) ORDER BY code
    `;
    expect(rows).toEqual([
      { code: `b${n}`, original_url: "https://example.com/from-bitly", tags: ["promo"], expires_at: null },
      { code: `k${n}`, original_url: "https://example.com/from-kutt", tags: [], expires_at: new Date("2031-01-01T00:00:00Z") },
      { code: `s${n}`, original_url: "https://example.com/from-shlink", tags: ["one", "two"], expires_at: null },
    ]);
  });

  it("refuses a file that is not CSV, too large or without a url column before creating anything", async () => {
    const json = await fetch(`${api.baseUrl}/urls/import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${api.tokens[2]}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(400);
    const big = await importCsv("url\n" + `https://example.com/${"x".repeat(200)}\n`.repeat(30_000), api.tokens[2]);
    expect(big.status).toBe(400);
    expect(await importCsv("name\nx\n", api.tokens[2])).toMatchObject({ status: 400 });
    const me = (await (await api.call("GET", "/auth/me", api.tokens[2])).json()) as { id: string };
    const count = await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM urls WHERE creator = ${me.id}`;
    expect(count!.n).toBe(0);
  });

  it("answers the client's next request after refusing an oversized upload, instead of stalling it", async () => {
    // One keep-alive socket at most: the next request waits for the upload's, which used to stall
    // behind the unread rest of the file until the server timed the connection out (about 30 s).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const auth = { Authorization: `Bearer ${api.tokens[2]}` };
    try {
      const file = "url\n" + `https://example.com/${"y".repeat(200)}\n`.repeat(30_000);
      const upload = { method: "POST", body: file };
      expect(await getStatus(`${api.baseUrl}/urls/import`, { ...auth, "Content-Type": "text/csv" }, agent, upload)).toBe(400);
      expect(await getStatus(`${api.baseUrl}/auth/me`, auth, agent, { signal: AbortSignal.timeout(10_000) })).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it("exports 100,000 links as CSV and JSON, streamed, without holding them in memory", async ({ annotate }) => {
    const token = api.tokens[2];
    const me = (await (await api.call("GET", "/auth/me", token)).json()) as { id: string };
    await db.exec`
      INSERT INTO urls (code, original_url, creator, workspace_id, tags, max_clicks)
      SELECT 'x' || lpad(to_hex(g), 7, '0') || ${me.id}, 'https://example.com/exported/' || g, ${me.id},
             (SELECT id FROM workspaces WHERE personal_of = ${me.id}),
             CASE WHEN g % 2 = 0 THEN ARRAY['even'] ELSE ARRAY[]::text[] END, CASE WHEN g % 3 = 0 THEN 100 END
      FROM generate_series(1, 100000) AS g
    `;
    for (const format of ["csv", "json"]) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const resp = await fetch(`${api.baseUrl}/urls/export?format=${format}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(resp.status).toBe(200);
      let bytes = 0;
      let newlines = 0;
      let head = "";
      for await (const chunk of resp.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) newlines++;
        if (head.length < 400) head += Buffer.from(chunk).toString("utf8", 0, 400);
      }
      clearInterval(sampler);
      const growthMB = (peak - before) / 2 ** 20;
      // Kept with the result (a failure or the verbose reporter shows it), not printed in a green run.
      await annotate(`export ${format}: 100,000 links, ${(bytes / 2 ** 20).toFixed(1)} MB sent, RSS growth ${growthMB.toFixed(1)} MB`);
      if (format === "csv") {
        expect(head.split("\n")[0]).toBe("code,shortUrl,originalUrl,clicks,createdAt,expiresAt,tags,maxClicks");
        expect(newlines).toBe(100_001);
      } else {
        expect(head.startsWith("[\n{")).toBe(true);
        expect(newlines).toBe(100_002);
      }
      // Holding 100,000 links as objects and text would take well over 100 MB.
      expect(growthMB).toBeLessThan(60);
    }
    const json = (await (
      await fetch(`${api.baseUrl}/urls/export?format=json`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as {
      code: string;
      tags: string[];
      maxClicks: number | null;
    }[];
    expect(json).toHaveLength(100_000);
    expect(json.find((l) => l.code === `x0000006${me.id}`)).toMatchObject({ tags: ["even"], maxClicks: 100 });
    expect(JSON.stringify(json.slice(0, 10))).not.toMatch(/scrypt|password/);
    expect((await api.call("GET", "/urls/export?format=xml", token)).status).toBe(400);
  });
});
