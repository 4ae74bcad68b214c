import { describe, expect, it } from "vitest";
import { APIError, ErrCode } from "encore.dev/api";
import { MAX_TARGET_BYTES } from "./link-rules";
import { validateTarget } from "./validate-target";

const OWN = ["sho.rt", "127.0.0.1"];
const SITE = "https://example.com/";

function refusal(raw: string): APIError {
  try {
    validateTarget(raw, OWN);
  } catch (err) {
    expect(err).toBeInstanceOf(APIError);
    return err as APIError;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

describe("validateTarget", () => {
  it.each([
    ["empty", "", /empty/],
    ["blank", " \t ", /empty/],
    ["not a URL (broken host)", "http://exa mple.com/", /not a valid URL/],
    ["not a URL (prose)", "not a url", /not a valid URL/],
    ["not a URL (no host)", "https://", /not a valid URL/],
    ["relative path", "/some/page", /must be absolute/],
    ["scheme-less host", "example.com/page", /must be absolute/],
    ["javascript:", "javascript:alert(document.cookie)", /scheme "javascript:"/],
    ["data:", "data:text/html,<script>alert(1)</script>", /scheme "data:"/],
    ["ftp:", "ftp://example.com/file.txt", /scheme "ftp:"/],
    ["file:", "file:///etc/passwd", /scheme "file:"/],
    ["2049 bytes", SITE + "a".repeat(MAX_TARGET_BYTES + 1 - SITE.length), /longer than 2048 bytes/],
    ["2049+ bytes in multibyte characters", SITE + "é".repeat(1100), /longer than 2048 bytes/],
    ["over 2048 bytes once percent-encoded", SITE + "é".repeat(600), /longer than 2048 bytes/],
    ["user:password", "https://user:secret@example.com/", /username or password/],
    ["user only (phishing form)", "https://paypal.com@evil.example/", /username or password/],
    ["the short-link host", "https://sho.rt/abc123", /back at this URL shortener/],
    ["the short-link host, other case and trailing dot", "HTTPS://Sho.RT./x", /back at this URL shortener/],
    ["the API host on another port", "http://127.0.0.1:9999/x", /back at this URL shortener/],
    ["a loopback alias of a loopback API host", "http://localhost:4000/abc123", /back at this URL shortener/],
    ["IPv4-mapped IPv6 loopback", "http://[::ffff:127.0.0.1]:4000/x", /back at this URL shortener/],
    ["0.0.0.0", "http://0.0.0.0:4000/x", /back at this URL shortener/],
    ["the unspecified IPv6 address", "http://[::]:4000/x", /back at this URL shortener/],
    ["a long-form IPv6 loopback", "http://[0:0:0:0:0:0:0:1]:4000/x", /back at this URL shortener/],
    ["a decimal IPv4 loopback", "http://2130706433:4000/x", /back at this URL shortener/],
    ["a subdomain of localhost", "http://app.localhost:4000/x", /back at this URL shortener/],
  ])("refuses %s with invalid_argument naming it", (_, raw, message) => {
    const err = refusal(raw);
    expect(err.code).toBe(ErrCode.InvalidArgument);
    expect(err.message).toMatch(message);
  });

  it("accepts http and https and returns the normalized URL", () => {
    expect(validateTarget("https://example.com/a?b=1#c", OWN)).toBe("https://example.com/a?b=1#c");
    expect(validateTarget("  HTTP://Example.COM  ", OWN)).toBe("http://example.com/");
    expect(validateTarget("https://example.com/a b/é", OWN)).toBe("https://example.com/a%20b/%C3%A9");
  });

  it("accepts exactly 2048 bytes", () => {
    const target = SITE + "a".repeat(MAX_TARGET_BYTES - SITE.length);
    expect(validateTarget(target, OWN)).toBe(target);
  });

  it("accepts hosts that merely resemble the shortener's", () => {
    expect(validateTarget("https://sho.rt.example.com/", OWN)).toBe("https://sho.rt.example.com/");
    expect(validateTarget("https://localhost/", ["sho.rt"])).toBe("https://localhost/");
  });
});
