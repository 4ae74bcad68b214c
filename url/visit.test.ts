import { createRequire } from "node:module";
import log from "encore.dev/log";
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeVisit, referrerHost } from "./visit";
import { USER_AGENTS } from "./__tests__/user-agents";

describe("referrerHost", () => {
  it.each([
    ["news.example.com", "a full URL", "https://News.Example.com./story/42?utm_source=x&email=me@example.com#c"],
    ["[::1]", "an IPv6 address", "http://[::1]:8080/x"],
    ["xn--bcher-kva.example", "an international name", "https://bücher.example/"],
    ["com.google.android.gm", "an Android app", "android-app://com.google.android.gm/"],
    ["", "no Referer", undefined],
    ["", "an empty Referer", ""],
    ["", "a relative Referer", "/somewhere"],
    ["", "a Referer without a host", "about:blank"],
    ["", "a host longer than DNS allows", `https://${"a".repeat(250)}.com/`],
  ])("records %j for %s", (host, _, referer) => {
    expect(referrerHost(referer)).toBe(host);
  });
});

describe("describeVisit", () => {
  const chrome = USER_AGENTS.desktop;
  /** The headers of a request the gateway passed on from `client`, through one trusted proxy. */
  const from = (client: string, more: Record<string, string> = {}) => ({
    "x-forwarded-for": `${client}, 10.1.2.3`,
    "user-agent": chrome,
    ...more,
  });

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("keeps the families, the referrer's host and the country, and the address only inside the visitor identity", () => {
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    const v = describeVisit("/abc123", { ...from("8.8.8.8"), referer: "https://news.example.com/a?b=c" });
    expect(v).toEqual({
      device: "desktop",
      browser: "Chrome",
      os: "Linux",
      referrerHost: "news.example.com",
      country: "US",
      source: "link",
      campaign: "",
      visitor: `8.8.8.8\n${chrome}`,
    });
  });

  it("looks addresses up in the shipped database: IPv4, IPv6, and unknown for loopback and private ones", () => {
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    const country = (client: string) => describeVisit("/abc123", from(client)).country;
    expect([country("1.1.1.1"), country("81.2.69.142"), country("85.214.132.117"), country("2001:67c:2e8::1")]).toEqual([
      "AU",
      "GB",
      "DE",
      "NL",
    ]);
    expect([country("127.0.0.1"), country("10.0.0.1"), country("::1"), country("not-an-address")]).toEqual(["ZZ", "ZZ", "ZZ", "ZZ"]);
    vi.stubEnv("TRUSTED_PROXY_HOPS", "0");
    expect(country("8.8.8.8")).toBe("ZZ"); // the proxy's own address is 10.1.2.3, which no country holds
  });

  it("reads the database GEOIP_DB names instead, and counts countries as unknown, logging once, when it cannot", () => {
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    const ipv4Only = createRequire(import.meta.url).resolve("@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country-ipv4.mmdb");
    vi.stubEnv("GEOIP_DB", ipv4Only);
    expect(describeVisit("/abc123", from("81.2.69.142")).country).toBe("GB");
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    vi.stubEnv("GEOIP_DB", "/nonexistent/GeoLite2-Country.mmdb");
    expect([describeVisit("/abc123", from("81.2.69.142")).country, describeVisit("/abc123", from("8.8.8.8")).country]).toEqual([
      "ZZ",
      "ZZ",
    ]);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0][1]).toMatch(/cannot read the IP-to-country database/);
    vi.unstubAllEnvs();
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    expect(describeVisit("/abc123", from("81.2.69.142")).country).toBe("GB");
  });

  it("believes a country header only when TRUSTED_COUNTRY_HEADER names it, and falls back to the address for none", () => {
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    const headers = from("8.8.8.8", { "cf-ipcountry": "de" });
    expect(describeVisit("/abc123", headers).country).toBe("US");
    vi.stubEnv("TRUSTED_COUNTRY_HEADER", "CF-IPCountry");
    expect(describeVisit("/abc123", headers).country).toBe("DE");
    for (const unknown of ["XX", "T1", "", "Germany", "QQ"]) {
      expect(describeVisit("/abc123", { ...headers, "cf-ipcountry": unknown }).country).toBe("US");
    }
  });

  it("tells a QR scan by its marker and names the UTM campaign", () => {
    expect(describeVisit("/abc123?qr=1", from("127.0.0.1")).source).toBe("qr");
    expect(describeVisit("/abc123?qr=0", from("127.0.0.1")).source).toBe("link");
    expect(describeVisit("/abc123?utm_source=newsletter&utm_medium=email&utm_campaign=spring&qr=1", {})).toMatchObject({
      source: "qr",
      campaign: "newsletter / email / spring",
    });
    expect(describeVisit("/abc123?utm_campaign=%20spring%0A", {}).campaign).toBe("(not set) / (not set) / spring");
    expect(describeVisit("/abc123?utm_source=", {}).campaign).toBe("");
    expect(describeVisit(`/abc123?utm_source=${"x".repeat(500)}`, {}).campaign).toBe(`${"x".repeat(64)} / (not set) / (not set)`);
  });

  it("counts no bot as a visitor, and an IPv6 visitor by their /64", () => {
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    expect(describeVisit("/abc123", { ...from("8.8.8.8"), "user-agent": USER_AGENTS.bot }).visitor).toBeNull();
    expect(describeVisit("/abc123", { "x-forwarded-for": "8.8.8.8" }).visitor).toBeNull();
    expect(describeVisit("/abc123", from("2001:db8:1:2::77")).visitor).toBe(`2001:db8:1:2::/64\n${chrome}`);
  });
});
