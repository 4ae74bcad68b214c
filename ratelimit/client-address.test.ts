// How an address becomes the subject of a per-address limit.
import { describe, expect, it } from "vitest";
import { addressKey, hopAddress } from "./client-address";

describe("addressKey", () => {
  it("keeps IPv4 addresses, also IPv4-mapped ones and with a port", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("203.0.113.7:51234")).toBe("203.0.113.7");
  });

  it("counts an IPv6 caller by its /64 network", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("[2001:db8::5]:443")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  it("counts anything else by its text, cut to 64 characters", () => {
    expect(addressKey("unknown")).toBe("unknown");
    expect(addressKey("x".repeat(100))).toBe("x".repeat(64));
  });
});

describe("hopAddress", () => {
  it("reads the address of a hop however a proxy wrote it, and nothing else", () => {
    expect(hopAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(hopAddress("203.0.113.7:51234")).toBe("203.0.113.7");
    expect(hopAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(hopAddress("[2001:db8::5]:443")).toBe("2001:db8::5");
    expect(hopAddress("203.0.113.256")).toBeNull();
    expect(hopAddress("unknown")).toBeNull();
  });
});
