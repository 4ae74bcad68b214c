import { describe, expect, it } from "vitest";
import { parseImport } from "./import-format";

describe("reading import files", () => {
  it("reads our columns, skipping empty cells and lines, with tags split on ;", () => {
    const csv =
      "url,alias,expiresAt,tags,maxClicks\nhttps://a.example/,my-a,2030-01-02T03:04:05Z,Launch; blog,5\n\nhttps://b.example/,,,,\n";
    expect(parseImport(csv)).toEqual([
      {
        line: 2,
        fields: {
          url: "https://a.example/",
          alias: "my-a",
          expiresAt: new Date("2030-01-02T03:04:05Z"),
          tags: ["Launch", "blog"],
          maxClicks: 5,
        },
      },
      { line: 4, fields: { url: "https://b.example/" } },
    ]);
  });

  it("reads Bitly's export: long_url, the back-half of the bitlink as alias, tags", () => {
    const csv =
      '\ufeffid,link,custom_bitlinks,long_url,title,tags,created_at\nbit.ly/3xYz,https://bit.ly/3xYz,,https://example.com/x,"A, title",promo,2024-01-01\n';
    expect(parseImport(csv)).toEqual([{ line: 2, fields: { url: "https://example.com/x", alias: "3xYz", tags: ["promo"] } }]);
  });

  it("reads Shlink's export: longUrl, shortCode, tags joined with |", () => {
    const csv =
      "createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\n2024-01-01T00:00:00+00:00,,abc12,https://s.test/abc12,https://example.com/y,,one|two,3\n";
    expect(parseImport(csv)).toEqual([{ line: 2, fields: { url: "https://example.com/y", alias: "abc12", tags: ["one", "two"] } }]);
  });

  it("reads Kutt's link fields: target, address, expire_in", () => {
    const csv =
      "id,address,target,description,expire_in,visit_count,created_at,link\n1,kutty,https://example.com/z,,2031-05-06T00:00:00.000Z,0,2024-01-01,https://kutt.it/kutty\n";
    expect(parseImport(csv)).toEqual([
      { line: 2, fields: { url: "https://example.com/z", alias: "kutty", expiresAt: new Date("2031-05-06T00:00:00.000Z") } },
    ]);
  });

  it("reports a bad cell or an unreadable row on its own line and reads the rest", () => {
    const csv =
      'url,expiresAt,maxClicks\nhttps://a.example/,soon,\nhttps://b.example/,,1.5\nhttps://c.example/a"b,,\nhttps://d.example/,,\n';
    expect(parseImport(csv)).toEqual([
      { line: 2, error: 'expiresAt "soon" is not a date' },
      { line: 3, error: 'maxClicks "1.5" is not a whole number' },
      { line: 4, error: expect.stringMatching(/^not valid CSV: Invalid Opening Quote/) },
      { line: 5, fields: { url: "https://d.example/" } },
    ]);
  });

  it("refuses a file with no url column, an empty one, and one of more than 10,000 rows", () => {
    expect(() => parseImport("name,alias\nx,y\n")).toThrow(/names no url column/);
    expect(() => parseImport("")).toThrow(/empty/);
    expect(() => parseImport("url\n" + "https://a.example/\n".repeat(10_001))).toThrow(/more than 10000 rows/);
    expect(parseImport("url\n" + "https://a.example/\n".repeat(10_000))).toHaveLength(10_000);
  });
});
