// infra.config.json is what `encore build docker --config` reads. Encore checks it only when the image
// is built, on a machine with Docker, so this test checks it here: that it names every resource the
// app declares (from the app model, the same facts Encore's compiler extracts) and nothing else, and
// that every field has the type both of Encore's readers accept: the CLI's Go struct
// (runtimes/go/appruntime/exported/config/infra/config.go), which validates it and writes it into the
// image, and the runtime's Rust struct (runtimes/core/src/infracfg.rs), which reads it at start.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadAppModel } from "./local/testing";

const root = fileURLToPath(new URL(".", import.meta.url));
const config = JSON.parse(fs.readFileSync(path.join(root, "infra.config.json"), "utf8")) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walked as untyped JSON, field by field
const model = loadAppModel(root);

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** isEnvString: a plain string or {"$env": "NAME"}, Encore's EnvString. */
function isEnvString(value: unknown): boolean {
  if (typeof value === "string") return true;
  return isEnvRef(value);
}

function isEnvRef(value: unknown): value is { $env: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length === 1 &&
    typeof (value as { $env?: unknown }).$env === "string" &&
    /^[A-Z][A-Z0-9_]*$/.test((value as { $env: string }).$env)
  );
}

/** envVars lists every environment variable the config reads, in order of appearance. */
function envVars(value: unknown): string[] {
  if (isEnvRef(value)) return [value.$env];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(envVars);
}

function isAbsoluteHttpUrl(value: unknown): boolean {
  return typeof value === "string" && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

describe("infra.config.json has the shape Encore reads", () => {
  it("has only keys Encore knows at the top level", () => {
    const known = [
      "$schema",
      "metadata",
      "graceful_shutdown",
      "auth",
      "service_discovery",
      "metrics",
      "sql_servers",
      "redis",
      "pubsub",
      "secrets",
      "object_storage",
      "worker_threads",
      "log_config",
    ];
    expect(Object.keys(config).filter((k) => !known.includes(k))).toEqual([]);
  });

  it("describes a production environment that is not 'local'", () => {
    const { metadata } = config;
    expect(["production", "development", "ephemeral", "test"]).toContain(metadata.env_type);
    // An absent or unknown cloud reads as "local" in appMeta(), where unset secrets quietly become "".
    expect(["aws", "gcp", "azure", "encore"]).toContain(metadata.cloud);
    expect(isAbsoluteHttpUrl(metadata.base_url)).toBe(true);
    expect(typeof metadata.app_id).toBe("string");
    expect(typeof metadata.env_name).toBe("string");
  });

  it("gives each database a plain username and an EnvString password", () => {
    for (const server of config.sql_servers) {
      expect(server.host).toMatch(/^[^\s/:]+:\d+$/);
      if (server.tls_config !== undefined) expect(typeof server.tls_config.disabled).toBe("boolean");
      for (const db of Object.values(server.databases) as Record<string, unknown>[]) {
        // The Go struct takes an EnvString here, but the runtime's Rust struct a plain String only.
        expect(typeof db.username).toBe("string");
        expect(isEnvString(db.password)).toBe(true);
        expect(db.name === undefined || typeof db.name === "string").toBe(true);
        expect(Number(db.max_connections ?? 100)).toBeGreaterThanOrEqual(Number(db.min_connections ?? 0));
      }
    }
  });

  it("uses a Pub/Sub type the runtime implements, with broker names NSQ accepts", () => {
    for (const pubsub of config.pubsub) {
      // Encore's docs also list azure, but the Go and Rust configs accept only these three.
      expect(["nsq", "gcp_pubsub", "aws_sns_sqs"]).toContain(pubsub.type);
      expect(pubsub.type).toBe("nsq");
      expect(pubsub.hosts).toMatch(/^[^\s/:]+:\d+$/);
      for (const topic of Object.values(pubsub.topics) as { name: string; subscriptions: Record<string, { name: string }> }[]) {
        expect(topic.name).toMatch(/^[.a-zA-Z0-9_-]{1,64}$/);
        for (const sub of Object.values(topic.subscriptions)) expect(sub.name).toMatch(/^[.a-zA-Z0-9_-]{1,64}$/);
      }
    }
  });

  it("configures S3-compatible storage with a plain access key id and an EnvString secret key", () => {
    for (const storage of config.object_storage) {
      expect(storage.type).toBe("s3");
      expect(typeof storage.region).toBe("string");
      expect(storage.region).not.toBe("");
      if (storage.endpoint !== undefined) expect(isAbsoluteHttpUrl(storage.endpoint)).toBe(true);
      // access_key_id is a plain string in both structs; only the secret key may come from $env.
      expect(typeof storage.access_key_id).toBe("string");
      expect(isEnvString(storage.secret_access_key)).toBe(true);
      for (const bucket of Object.values(storage.buckets) as { name: string; public_base_url?: string }[]) {
        expect(bucket.name).toMatch(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/);
        if (bucket.public_base_url !== undefined) expect(isAbsoluteHttpUrl(bucket.public_base_url)).toBe(true);
      }
    }
  });

  it("connects each cache cluster as both readers require", () => {
    for (const redis of Object.values(config.redis) as (typeof config)[]) {
      expect(redis.host).toMatch(/^[^\s/:]+:\d+$/);
      expect(redis.database_index).toBeGreaterThanOrEqual(0);
      expect(redis.database_index).toBeLessThanOrEqual(15);
      // The runtime's Rust struct has no default for in_memory, and without tls_config it speaks TLS.
      expect(typeof redis.in_memory).toBe("boolean");
      expect(typeof redis.tls_config?.disabled).toBe("boolean");
      expect(["auth_string", "acl"]).toContain(redis.auth.type);
      if (redis.auth.type === "auth_string") expect(isEnvRef(redis.auth.auth_string)).toBe(true);
      else expect(typeof redis.auth.username === "string" && isEnvRef(redis.auth.password)).toBe(true);
      if (redis.key_prefix !== undefined) expect(typeof redis.key_prefix).toBe("string");
    }
  });

  it("takes every credential and secret from the environment", () => {
    for (const value of Object.values(config.secrets)) expect(isEnvRef(value)).toBe(true);
    for (const server of config.sql_servers) {
      for (const db of Object.values(server.databases) as { password: unknown }[]) expect(isEnvRef(db.password)).toBe(true);
    }
    for (const storage of config.object_storage) expect(isEnvRef(storage.secret_access_key)).toBe(true);
  });

  it("documents every environment variable it reads in the self-hosting guide", () => {
    const readme = fs.readFileSync(path.join(root, "docs", "self-hosting", "README.md"), "utf8");
    const vars = sorted(envVars(config));
    expect(vars.length).toBeGreaterThan(0);
    expect(vars.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});

describe("infra.config.json covers exactly what the app declares", () => {
  const servers = config.sql_servers as { databases: Record<string, unknown> }[];
  const pubsubs = config.pubsub as { topics: Record<string, { subscriptions?: Record<string, unknown> }> }[];
  const storages = config.object_storage as { buckets: Record<string, { public_base_url?: string }> }[];

  it("every database, once", () => {
    const configured = servers.flatMap((s) => Object.keys(s.databases));
    expect(configured.sort()).toEqual(sorted(model.databases.map((d) => d.name)));
    expect(configured.length).toBeGreaterThanOrEqual(3);
  });

  it("every topic and each of its subscriptions", () => {
    const topics = pubsubs.flatMap((p) => Object.entries(p.topics));
    expect(topics.map(([name]) => name).sort()).toEqual(sorted(model.topics.map((t) => t.name)));
    for (const [name, topic] of topics) {
      const declared = model.subscriptions.filter((s) => s.topic === name).map((s) => s.name);
      expect(Object.keys(topic.subscriptions ?? {}).sort(), `subscriptions of ${name}`).toEqual(sorted(declared));
    }
    expect(model.subscriptions.length).toBeGreaterThan(0);
  });

  it("every bucket, with a public base URL for the public ones", () => {
    const buckets = new Map(storages.flatMap((s) => Object.entries(s.buckets)));
    expect([...buckets.keys()].sort()).toEqual(sorted(model.buckets.map((b) => b.name)));
    for (const bucket of model.buckets.filter((b) => b.public)) {
      expect(buckets.get(bucket.name)?.public_base_url, `public_base_url of ${bucket.name}`).toBeDefined();
    }
  });

  it("every cache cluster", () => {
    expect(Object.keys(config.redis ?? {}).sort()).toEqual(sorted(model.cacheClusters.map((c) => c.name)));
    expect(model.cacheClusters.length).toBeGreaterThan(0);
  });

  it("every secret", () => {
    expect(Object.keys(config.secrets).sort()).toEqual(sorted(model.secrets.map((s) => s.name)));
    expect(Object.keys(config.secrets)).toContain("JWTSecret");
  });
});
