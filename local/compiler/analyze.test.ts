// The analyzer against the valid fixture app: every part of the model it must fill in.
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeApp } from "./analyze";
import type { AppModel, EndpointModel, FieldSchema, ObjectSchema } from "../model/app-model";

const fixture = (name: string): string => fileURLToPath(new URL(`../__tests__/fixtures/${name}`, import.meta.url));

let model: AppModel;
beforeAll(() => {
  model = analyzeApp(fixture("valid"));
});

function endpoint(name: string): EndpointModel {
  const ep = model.endpoints.find((e) => e.name === name);
  if (ep === undefined) throw new Error(`no endpoint ${name}`);
  return ep;
}

function field(schema: ObjectSchema | null, name: string): FieldSchema {
  const f = schema?.fields.find((x) => x.name === name);
  if (f === undefined) throw new Error(`no field ${name}`);
  return f;
}

describe("services and files", () => {
  it("finds each encore.service.ts and its directory", () => {
    expect(model.root).toBe(fixture("valid"));
    expect(model.services).toEqual([
      { name: "account", dir: "account", file: "account/encore.service.ts" },
      { name: "shop", dir: "shop", file: "shop/encore.service.ts" },
      { name: "stats", dir: "stats", file: "stats/encore.service.ts" },
    ]);
  });

  it("skips dot-dirs and __tests__ (each holds an unexported api that would be rejected)", () => {
    expect(model.endpoints.map((e) => e.file).every((f) => /^(shop|account)\//.test(f))).toBe(true);
  });
});

describe("endpoint options", () => {
  it("applies Encore's defaults: POST, /service.name, private, no auth, 2 MiB", () => {
    expect(endpoint("ping")).toMatchObject({
      service: "shop",
      methods: ["POST"],
      path: "/shop.ping",
      expose: false,
      auth: false,
      raw: false,
      bodyLimit: 2 * 1024 * 1024,
      tags: [],
      sensitive: false,
      request: null,
      response: null,
    });
  });

  it("reads explicit options, including computed body limits and null for unlimited", () => {
    expect(endpoint("create")).toMatchObject({ methods: ["POST"], path: "/items", expose: true, auth: true, bodyLimit: 10240 });
    expect(endpoint("anything")).toMatchObject({ bodyLimit: null, tags: ["a", "b"], sensitive: true, path: "/any/*rest" });
  });

  it("expands * to every method but CONNECT and sorts/dedupes method lists", () => {
    expect(endpoint("anything").methods).toEqual(["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS", "TRACE"]);
    expect(endpoint("multi").methods).toEqual(["GET", "POST"]);
    expect(endpoint("multi").path).toBe("/shop.multi");
  });

  it("gives raw endpoints no schemas", () => {
    expect(endpoint("raw")).toMatchObject({ raw: true, path: "/raw/:code", request: null, response: null });
  });

  it("records the endpoint's source location", () => {
    expect(endpoint("get").file).toBe("shop/items.ts");
    expect(endpoint("get").loc).toEqual({ file: "shop/items.ts", line: 10, column: 20 });
  });
});

describe("request schemas", () => {
  it("places path params in the path", () => {
    expect(endpoint("get").request).toEqual({
      fields: [{ name: "id", wireName: "id", optional: false, location: "path", type: { kind: "number" } }],
    });
    expect(field(endpoint("anything").request, "rest").location).toBe("path");
  });

  it("reads Header<> fields with explicit, typed and default names", () => {
    const req = endpoint("create").request;
    expect(field(req, "requestId")).toEqual({
      name: "requestId",
      wireName: "X-Request-Id",
      optional: false,
      location: "header",
      type: { kind: "string" },
    });
    expect(field(req, "count")).toEqual({
      name: "count",
      wireName: "X-Count",
      optional: true,
      location: "header",
      type: { kind: "number" },
    });
    expect(field(req, "plain")).toMatchObject({ wireName: "plain", location: "header", type: { kind: "string" } });
  });

  it("reads Query<> fields, renamed or by field name, and leaves plain fields at default", () => {
    const req = endpoint("create").request;
    expect(field(req, "page")).toMatchObject({ wireName: "p", location: "query", type: { kind: "number" } });
    expect(field(req, "sort")).toMatchObject({ wireName: "sort", location: "query", type: { kind: "string" } });
    const list = endpoint("list").request;
    expect(field(list, "tags")).toMatchObject({ location: "query", type: { kind: "array", elem: { kind: "string" } } });
    expect(field(list, "limit")).toEqual({
      name: "limit",
      wireName: "limit",
      optional: true,
      location: "default",
      type: { kind: "number" },
    });
  });

  it("builds validation expressions with Encore's and/or structure", () => {
    const req = endpoint("create").request;
    expect(field(req, "name").type).toEqual({
      kind: "validated",
      base: { kind: "string" },
      expr: {
        and: [
          { rule: "minLen", value: 3 },
          { rule: "maxLen", value: 20 },
        ],
      },
    });
    expect(field(req, "contact").type).toEqual({
      kind: "validated",
      base: { kind: "string" },
      expr: { or: [{ rule: "isEmail" }, { rule: "isURL" }] },
    });
    expect(field(req, "qty").type).toEqual({
      kind: "validated",
      base: { kind: "number" },
      expr: {
        and: [
          { rule: "minValue", value: 1 },
          { rule: "maxValue", value: 100 },
        ],
      },
    });
  });

  it("keeps validation declared in a type alias (type Email = string & IsEmail & MaxLen<50>)", () => {
    expect(field(endpoint("get").response, "owner").type).toEqual({
      kind: "validated",
      base: { kind: "string" },
      expr: { and: [{ rule: "isEmail" }, { rule: "maxLen", value: 50 }] },
    });
  });

  it("keeps validation passed as a generic type argument, and stops recursive types at the recursion", () => {
    const req = endpoint("create").request;
    expect(field(req, "wrapped").type).toEqual({
      kind: "object",
      fields: [
        {
          name: "value",
          wireName: "value",
          optional: false,
          location: "default",
          type: { kind: "validated", base: { kind: "string" }, expr: { or: [{ rule: "isEmail" }, { rule: "isURL" }] } },
        },
      ],
    });
    expect(field(req, "tree").type).toEqual({
      kind: "object",
      fields: [
        { name: "label", wireName: "label", optional: false, location: "default", type: { kind: "string" } },
        { name: "children", wireName: "children", optional: false, location: "default", type: { kind: "array", elem: { kind: "any" } } },
      ],
    });
  });

  it("handles intersections and Partial<Pick<...>>", () => {
    expect(endpoint("update").request?.fields).toEqual([
      { name: "id", wireName: "id", optional: false, location: "path", type: { kind: "number" } },
      { name: "name", wireName: "name", optional: true, location: "default", type: { kind: "string" } },
      { name: "note", wireName: "note", optional: true, location: "default", type: { kind: "string" } },
    ]);
  });
});

describe("response schemas", () => {
  it("reads HttpStatus and response headers", () => {
    expect(endpoint("create").response?.fields).toEqual([
      { name: "status", wireName: "status", optional: false, location: "httpstatus", type: { kind: "number" } },
      { name: "location", wireName: "Location", optional: false, location: "header", type: { kind: "string" } },
      { name: "id", wireName: "id", optional: false, location: "default", type: { kind: "number" } },
    ]);
  });

  it("maps Decimal, Date, literal unions, enums, optional, nullable, arrays, nested objects, records and extends", () => {
    const resp = endpoint("get").response;
    expect(field(resp, "price").type).toEqual({ kind: "decimal" });
    expect(field(resp, "createdAt").type).toEqual({ kind: "date" });
    expect(field(resp, "status").type).toEqual({
      kind: "union",
      types: [
        { kind: "literal", value: "active" },
        { kind: "literal", value: "archived" },
      ],
    });
    expect(field(resp, "color").type).toEqual({
      kind: "union",
      types: [
        { kind: "literal", value: "red" },
        { kind: "literal", value: "blue" },
      ],
    });
    expect(field(resp, "note")).toMatchObject({ optional: true, type: { kind: "string" } });
    expect(field(resp, "deletedAt")).toMatchObject({
      optional: false,
      type: { kind: "union", types: [{ kind: "date" }, { kind: "null" }] },
    });
    expect(field(resp, "tags").type).toEqual({ kind: "array", elem: { kind: "string" } });
    expect(field(resp, "dims").type).toEqual({
      kind: "object",
      fields: [
        { name: "w", wireName: "w", optional: false, location: "default", type: { kind: "number" } },
        { name: "h", wireName: "h", optional: false, location: "default", type: { kind: "number" } },
      ],
    });
    expect(field(resp, "attrs").type).toEqual({ kind: "map", value: { kind: "number" } });
    expect(field(resp, "id").type).toEqual({ kind: "number" });
  });

  it("instantiates generic response types from api<Req, Resp> type arguments", () => {
    const resp = endpoint("list").response;
    const items = field(resp, "items").type;
    expect(items.kind === "array" && items.elem.kind === "object" && items.elem.fields.map((f) => f.name)).toContain("price");
    expect(field(resp, "total").type).toEqual({ kind: "validated", base: { kind: "number" }, expr: { rule: "minValue", value: 0 } });
  });

  it("gives void and {} responses no schema", () => {
    expect(endpoint("cleanup").response).toBeNull();
    expect(endpoint("featured").response?.fields.map((f) => f.name)).toEqual(["ids"]);
  });
});

describe("auth", () => {
  it("finds the exported gateway and the auth handler's params and data", () => {
    expect(model.gateways).toEqual([
      { name: "gateway", file: "account/auth.ts", service: "account", loc: { file: "account/auth.ts", line: 17, column: 24 } },
    ]);
    expect(model.authHandler).toMatchObject({ name: "auth", service: "account", file: "account/auth.ts" });
    expect(model.authHandler?.params.fields).toEqual([
      { name: "authorization", wireName: "Authorization", optional: false, location: "header", type: { kind: "string" } },
      { name: "session", wireName: "session", optional: true, location: "cookie", type: { kind: "string" } },
      { name: "token", wireName: "token", optional: true, location: "query", type: { kind: "string" } },
    ]);
    expect(model.authHandler?.authData.fields.map((f) => f.name)).toEqual(["userID", "email"]);
  });
});

describe("infrastructure", () => {
  it("lists databases with absolute migration dirs and their .up migrations by number", () => {
    expect(model.databases).toEqual([
      {
        name: "shop",
        service: "shop",
        file: "shop/db.ts",
        loc: { file: "shop/db.ts", line: 3, column: 19 },
        migrationsDir: fixture("valid/shop/migrations"),
        migrations: [
          { number: 1, description: "init", file: "1_init.up.sql" },
          { number: 2, description: "add_name", file: "002_add_name.up.sql" },
        ],
      },
      expect.objectContaining({
        name: "stats",
        service: "stats",
        migrations: [{ number: 1, description: "counts", file: "1_counts.up.sql" }],
      }),
    ]);
  });

  it("reads topics with their message schema", () => {
    expect(model.topics).toEqual([
      {
        name: "item-created",
        file: "shop/topic.ts",
        loc: { file: "shop/topic.ts", line: 9, column: 28 },
        deliveryGuarantee: "at-least-once",
        orderingAttribute: null,
        message: {
          fields: [
            { name: "id", wireName: "id", optional: false, location: "default", type: { kind: "number" } },
            { name: "at", wireName: "at", optional: false, location: "default", type: { kind: "date" } },
            { name: "region", wireName: "region", optional: false, location: "default", type: { kind: "string" } },
          ],
        },
        publishers: [],
      },
    ]);
  });

  it("reads subscriptions, converting durations and applying Encore's defaults", () => {
    expect(model.subscriptions).toEqual([
      expect.objectContaining({
        topic: "item-created",
        name: "count-items",
        service: "stats",
        file: "stats/subs.ts",
        ackDeadlineMs: 10_000,
        messageRetentionMs: 5_400_000,
        minBackoffMs: 1000,
        maxBackoffMs: 600_000,
        maxRetries: 5,
        maxConcurrency: 3,
      }),
      expect.objectContaining({
        topic: "item-created",
        name: "audit-items",
        service: "stats",
        ackDeadlineMs: 30_000,
        messageRetentionMs: 7 * 24 * 3600 * 1000,
        minBackoffMs: 10_000,
        maxBackoffMs: 600_000,
        maxRetries: 100,
        maxConcurrency: null,
      }),
    ]);
  });

  it("reads cron jobs with a schedule or an interval and resolves their endpoints", () => {
    expect(model.cronJobs).toEqual([
      expect.objectContaining({
        id: "nightly-cleanup",
        title: "Nightly cleanup",
        schedule: "0 3 * * *",
        everyMs: null,
        endpoint: { service: "shop", name: "cleanup" },
      }),
      expect.objectContaining({
        id: "tick",
        title: null,
        schedule: null,
        everyMs: 90 * 60_000,
        endpoint: { service: "shop", name: "ping" },
      }),
    ]);
  });

  it("reads cache clusters, declared once and referenced by name", () => {
    expect(model.cacheClusters.map(({ name, evictionPolicy, file }) => ({ name, evictionPolicy, file }))).toEqual([
      { name: "shop-cache", evictionPolicy: "volatile-ttl", file: "shop/cache.ts" },
    ]);
  });

  it("reads buckets and secrets", () => {
    expect(model.buckets.map(({ name, public: pub, versioned }) => ({ name, pub, versioned }))).toEqual([
      { name: "item-images", pub: true, versioned: false },
      { name: "private-docs", pub: false, versioned: true },
    ]);
    expect(model.secrets).toEqual([
      { name: "ApiKey", service: "shop", file: "shop/secrets.ts", loc: { file: "shop/secrets.ts", line: 3, column: 23 } },
    ]);
  });

  it("produces plain JSON (the cache stores it as such)", () => {
    expect(JSON.parse(JSON.stringify(model))).toEqual(model);
  });
});
