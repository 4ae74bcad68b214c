// The SSRF guard, table-driven: every address and name below must be refused when the request runs,
// with the development setting off, and a receiver listening on loopback must never see a request.
import http from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postGuarded, refuseOutboundUrl, type OutboundPolicy } from "./guarded-post";

/** A resolver that answers every name with `addresses`, as a hostile DNS server would. */
function resolvesTo(...addresses: string[]): LookupFunction {
  const answers = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options.all) cb(null, answers);
    else cb(null, answers[0].address, answers[0].family);
  }) as unknown as LookupFunction;
}

let receiver: http.Server;
let port: number;
let received = 0;
let redirector: http.Server;
let redirectorPort: number;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    received++;
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  port = (receiver.address() as AddressInfo).port;
  // A receiver on 127.0.0.2 stands in for a public host: the policy allows that one address by name.
  redirector = http.createServer((req, res) => {
    req.resume();
    res.writeHead(302, { location: `http://127.0.0.1:${port}/` }).end();
  });
  await new Promise<void>((r) => redirector.listen(0, "127.0.0.2", r));
  redirectorPort = (redirector.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => receiver.close(r));
  await new Promise((r) => redirector.close(r));
});

const strict: OutboundPolicy = { allowPrivate: false };

/** Each case: a URL and, where the name must resolve somewhere, the resolver's answer. */
const refusedAtDelivery: { name: string; url: () => string; lookup?: LookupFunction }[] = [
  { name: "loopback 127.0.0.1", url: () => `http://127.0.0.1:${port}/hook` },
  { name: "loopback 127.1 (short form)", url: () => `http://127.1:${port}/` },
  { name: "loopback 0x7f.1 (hex)", url: () => `http://0x7f.1:${port}/` },
  { name: "loopback 2130706433 (decimal)", url: () => `http://2130706433:${port}/` },
  { name: "loopback 017700000001 (octal)", url: () => `http://017700000001:${port}/` },
  { name: "loopback 127.255.255.254", url: () => `http://127.255.255.254:${port}/` },
  { name: "localhost (resolved by the system)", url: () => `http://localhost:${port}/` },
  { name: "IPv6 loopback [::1]", url: () => `http://[::1]:${port}/` },
  { name: "IPv4-mapped IPv6 [::ffff:127.0.0.1]", url: () => `http://[::ffff:127.0.0.1]:${port}/` },
  { name: "IPv4-mapped IPv6 of a private address [::ffff:10.0.0.1]", url: () => `http://[::ffff:10.0.0.1]:${port}/` },
  { name: "unspecified 0.0.0.0", url: () => `http://0.0.0.0:${port}/` },
  { name: "unspecified 0 (short form)", url: () => `http://0:${port}/` },
  { name: "unspecified [::]", url: () => `http://[::]:${port}/` },
  { name: "private 10/8", url: () => "http://10.1.2.3/" },
  { name: "private 172.16/12 (first)", url: () => "http://172.16.0.1/" },
  { name: "private 172.16/12 (last)", url: () => "https://172.31.255.254/" },
  { name: "private 192.168/16", url: () => "http://192.168.1.1/" },
  { name: "CGNAT 100.64/10 (first)", url: () => "http://100.64.0.1/" },
  { name: "CGNAT 100.64/10 (last)", url: () => "http://100.127.255.254/" },
  { name: "link-local 169.254/16", url: () => "http://169.254.1.1/" },
  { name: "cloud metadata 169.254.169.254", url: () => "http://169.254.169.254/latest/meta-data/" },
  { name: "IPv6 unique local fd00::/8", url: () => "http://[fd00::1]/" },
  { name: "IPv6 unique local fc00::/7", url: () => "http://[fc00::1]/" },
  { name: "AWS IPv6 metadata fd00:ec2::254", url: () => "http://[fd00:ec2::254]/" },
  { name: "IPv6 link-local fe80::/10", url: () => "http://[fe80::1]/" },
  { name: "multicast 224/4", url: () => "http://224.0.0.1/" },
  { name: "IPv6 multicast ff02::1", url: () => "http://[ff02::1]/" },
  { name: "reserved 240/4", url: () => "http://240.0.0.1/" },
  { name: "broadcast 255.255.255.255", url: () => "http://255.255.255.255/" },
  { name: "documentation 192.0.2/24", url: () => "http://192.0.2.1/" },
  { name: "NAT64 of loopback 64:ff9b::7f00:1", url: () => "http://[64:ff9b::7f00:1]/" },
  { name: "6to4 of loopback 2002:7f00:1::", url: () => "http://[2002:7f00:1::]/" },
  { name: "a name that resolves to a private address", url: () => "http://hooks.example.com/", lookup: resolvesTo("10.0.0.7") },
  {
    name: "a name that resolves to a public and a loopback address",
    url: () => `http://mixed.example.com:${port}/`,
    lookup: resolvesTo("93.184.216.34", "127.0.0.1"),
  },
  {
    name: "a name that resolves to the metadata address",
    url: () => "http://metadata.example.com/",
    lookup: resolvesTo("169.254.169.254"),
  },
  { name: "a name that resolves to IPv6 loopback", url: () => `http://six.example.com:${port}/`, lookup: resolvesTo("::1") },
];

describe("postGuarded with private addresses refused", () => {
  it.each(refusedAtDelivery)("refuses $name", async ({ url, lookup }) => {
    const before = received;
    const result = await postGuarded(url(), "{}", {}, { ...strict, lookup }, 2_000);
    expect(result).toMatchObject({ error: expect.stringMatching(/^address \S+ is not allowed/) });
    expect(received).toBe(before);
  });

  it("does not follow a redirect to a loopback address", async () => {
    const result = await postGuarded(`http://127.0.0.2:${redirectorPort}/`, "{}", {}, { ...strict, allowAddresses: ["127.0.0.2"] }, 2_000);
    expect(result).toMatchObject({ error: `redirect (302 to http://127.0.0.1:${port}/) not followed` });
    expect(received).toBe(0);
  });

  it.each([
    ["ftp://example.com/", "only http and https URLs are allowed"],
    ["file:///etc/passwd", "only http and https URLs are allowed"],
    ["javascript:alert(1)", "only http and https URLs are allowed"],
    ["gopher://127.0.0.1:6379/_INFO", "only http and https URLs are allowed"],
    ["http://user:secret@example.com/", "the URL must not contain a user name or password"],
    ["/relative", "not an absolute URL"],
  ])("refuses %s before any connect: %s", async (url, reason) => {
    expect(refuseOutboundUrl(url)).toBe(reason);
    expect(await postGuarded(url, "{}", {}, strict, 2_000)).toEqual({ error: reason, durationMs: 0 });
  });
});

describe("postGuarded with private addresses allowed (WEBHOOKS_ALLOW_PRIVATE=1)", () => {
  const dev: OutboundPolicy = { allowPrivate: true };

  it("delivers to a loopback receiver and reports its status", async () => {
    const result = await postGuarded(`http://127.0.0.1:${port}/hook`, '{"a":1}', { "content-type": "application/json" }, dev, 2_000);
    expect(result).toMatchObject({ status: 204 });
    expect(received).toBe(1);
  });

  it("still refuses the metadata address and the unspecified address", async () => {
    for (const url of ["http://169.254.169.254/", `http://0.0.0.0:${port}/`]) {
      expect(await postGuarded(url, "{}", {}, dev, 2_000)).toMatchObject({ error: expect.stringMatching(/is not allowed/) });
    }
    expect(received).toBe(1);
  });

  it("gives up on a receiver that does not answer in time", async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const result = await postGuarded(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, "{}", {}, dev, 200);
    expect(result).toMatchObject({ error: "no answer within 0.2 s" });
    silent.closeAllConnections();
    await new Promise((r) => silent.close(r));
  });
});
