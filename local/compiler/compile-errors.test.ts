// One broken fixture app per compile-time rule: analyzeApp must reject each with a message that
// names the file, the line and the rule (Encore's wording where Encore has the rule).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { analyzeApp } from "./analyze";
import { AppCompileError } from "../model/app-model";

const fixture = (name: string): string => fileURLToPath(new URL(`../__tests__/fixtures/${name}`, import.meta.url));

/** One expected violation: where, which rule, and text its message must contain. */
type Expected = [file: string, line: number, rule: string, text: string];

const CASES: Record<string, Expected[]> = {
  "service-outside-service-file": [
    ["svc/other.ts", 3, "service-outside-service-file", "service declarations are only allowed in encore.service.ts"],
  ],
  "service-not-default-export": [["svc/encore.service.ts", 3, "service-not-default-export", "service must be default export"]],
  "service-bound-to-variable": [
    ["svc/encore.service.ts", 3, "service-bound-to-variable", "service definitions should not be bound to a variable"],
  ],
  "service-nested": [["svc/inner/encore.service.ts", 3, "service-nested", "service inner cannot be contained within service svc"]],
  "service-duplicate": [["b/encore.service.ts", 3, "service-duplicate", "service svc defined twice"]],
  "endpoint-not-exported": [
    ["svc/hello.ts", 3, "endpoint-not-exported", "API endpoint must be bound to an exported variable"],
    ["svc/hello.ts", 6, "endpoint-not-exported", "API endpoint must be bound to an exported variable"],
  ],
  "resource-outside-service": [["loose/hello.ts", 3, "resource-outside-service", 'implicit service "loose"']],
  "path-param-missing": [["svc/get.ts", 3, "path-param-missing", "path parameter not found in request schema"]],
  "path-param-no-request": [["svc/get.ts", 3, "path-param-no-request", "request schema must be defined when having path parameters"]],
  "invalid-path": [
    ["svc/get.ts", 3, "invalid-path", "path cannot contain empty path segment"],
    ["svc/get.ts", 4, "invalid-path", "path cannot contain empty path segment"],
    ["svc/get.ts", 5, "invalid-path", "path must start with '/'"],
    ["svc/get.ts", 6, "invalid-path", "wildcard segment must be at the end of the path"],
  ],
  "conflicting-paths": [["svc/items.ts", 4, "conflicting-paths", "api endpoints with conflicting paths defined"]],
  "conflicting-paths-wildcard": [
    ["svc/items.ts", 4, "conflicting-paths", "api endpoints with conflicting paths defined: GET /*rest conflicts with GET /:code"],
  ],
  "conflicting-paths-across-services": [
    ["b/x.ts", 3, "conflicting-paths-across-services", "GET /x/:key in service b conflicts with GET /x/:id"],
  ],
  "duplicate-endpoint-name": [
    ["svc/b.ts", 3, "duplicate-endpoint-name", "api endpoints with conflicting names defined within the same service"],
  ],
  "config-not-object-literal": [["svc/hello.ts", 4, "config-expected-object-literal", "expected object literal"]],
  "config-spread": [["svc/hello.ts", 4, "config-spread-unsupported", "spread operator unsupported"]],
  "config-unexpected-field": [["svc/hello.ts", 3, "config-unexpected-field", "unexpected field"]],
  "config-not-literal": [["svc/hello.ts", 4, "config-expected-literal", "expected string literal"]],
  "resource-config-not-literal": [
    ["svc/infra.ts", 15, "config-expected-literal", "expected string literal"],
    ["svc/infra.ts", 16, "resource-name-not-literal", "expected string literal"],
    ["svc/infra.ts", 17, "config-expected-literal", "expected boolean literal"],
    ["svc/infra.ts", 18, "config-expected-object-literal", "expected object literal"],
    ["svc/infra.ts", 19, "cron-invalid-schedule", "expected cron expression"],
    ["svc/infra.ts", 20, "config-prop-unsupported", "prop type ShorthandPropertyAssignment not supported"],
  ],
  "invalid-migration-filename": [["svc/db.ts", 3, "invalid-migration-filename", "invalid migration filename: init.up.sql"]],
  "duplicate-migration-number": [["svc/db.ts", 3, "duplicate-migration-number", "duplicate migration identifier 1"]],
  "invalid-bucket-name": [["svc/bucket.ts", 3, "invalid-bucket-name", "invalid bucket name 'My_Files'"]],
  "bucket-public-url-not-public": [["svc/url.ts", 3, "bucket-public-url-not-public", "cannot call publicUrl on a non-public bucket"]],
  "auth-handler-twice": [["svc/auth2.ts", 4, "auth-handler-twice", "only one auth handler can be defined per application"]],
  "auth-without-gateway": [
    ["svc/me.ts", 3, "auth-without-gateway", "no Gateway uses the authHandler: Encore would answer every auth: true endpoint"],
  ],
  "auth-gateway-not-exported": [
    ["svc/me.ts", 3, "auth-without-gateway", "the Gateway using the authHandler is not an exported top-level variable"],
  ],
  "auth-params-not-wire": [
    ["svc/auth.ts", 5, "auth-params-not-wire", "authHandler parameter type can only consist of Query and Header fields"],
  ],
  // encoding.rs iface_fields: a request or response must resolve to an interface (Rust's Debug of what it found).
  "schema-not-object": [
    ["svc/get.ts", 7, "schema-not-object", "expected named interface type, found Basic(String)"],
    [
      "svc/get.ts",
      8,
      "schema-not-object",
      'expected named interface type, found Array(Array(Named(Named { obj: Object { name: Some("User") }',
    ],
    ["svc/get.ts", 9, "schema-not-object", "expected named interface type, found Basic(String)"],
  ],
  "query-param-type": [["svc/get.ts", 4, "query-param-type", "type not supported for query parameters"]],
  // app/mod.rs validate_validations reports at the schema's annotation, not the field.
  "validation-unsupported-type": [
    ["svc/get.ts", 8, "validation-unsupported-type", "unsupported validation: MinLen<3> cannot be applied to number"],
  ],
  "http-status-twice": [["svc/get.ts", 4, "http-status-twice", "http status can only be defined once per response type"]],
  "cron-invalid": [
    ["svc/cron.ts", 6, "cron-invalid-every", "`every` must be a multiple of 60 seconds"],
    ["svc/cron.ts", 7, "cron-invalid-every", "`every` must be at most 24 hours"],
    ["svc/cron.ts", 8, "cron-invalid-schedule", "must have exactly 5 fields"],
    ["svc/cron.ts", 9, "cron-invalid-schedule", 'day of week field "7": 7 is out of range 0-6'],
    ["svc/cron.ts", 10, "cron-invalid-schedule", 'month field "jan": names are not supported'],
  ],
  "secret-not-global": [["svc/secrets.ts", 4, "secret-not-global", "secrets must be defined globally"]],
  "duplicate-resources": [
    ["svc/b.ts", 7, "duplicate-database", "SQL Database with this name already defined"],
    ["svc/b.ts", 8, "duplicate-topic", "PubSub topic with this name already defined"],
    ["svc/b.ts", 9, "duplicate-bucket", "bucket with this name already defined"],
    ["svc/b.ts", 10, "duplicate-cron-job", "cron job with this name already defined"],
    ["svc/b.ts", 11, "duplicate-subscription", "PubSub subscription with this name already defined on this topic"],
  ],
  "cross-service-database": [
    ["thief/read.ts", 2, "cross-service-database", `service thief uses database "owner" of service owner`],
    ["thief/read.ts", 4, "cross-service-database", "this app's rule (not Encore's)"],
  ],
  "encore-app-not-typescript": [["encore.app", 1, "encore-app-not-typescript", 'encore.app must set "lang": "typescript"']],
  // swc's message (module_loader.rs parse_file), as Encore reports it.
  "syntax-error": [["svc/broken.ts", 1, "syntax-error", "Expected ',', got ';'"]],
  "cache-keyspace-invalid": [
    ["svc/keyspaces.ts", 5, "cache-key-pattern", "KeyPattern parameter must be named ':key' for basic (non-struct) key types"],
    ["svc/keyspaces.ts", 6, "cache-key-pattern", "cache key field 'tags' must be a basic type (string, number, or boolean)"],
    ["svc/keyspaces.ts", 6, "cache-key-pattern", "cache key field 'unused' is not used in the keyPattern"],
    ["svc/keyspaces.ts", 6, "cache-key-pattern", "keyPattern parameter 'missing' does not exist in the key type"],
    ["svc/keyspaces.ts", 7, "cache-key-pattern", "the prefix `__encore` is reserved for internal use by Encore"],
    ["svc/keyspaces.ts", 8, "cache-key-type", "'any' is not supported as a cache key type"],
    ["svc/keyspaces.ts", 9, "cache-struct-value-type", "StructKeyspace value type must be an interface or object type"],
    ["svc/keyspaces.ts", 10, "cache-key-type", "unsupported key type: string | number"],
    ["svc/keyspaces.ts", 12, "cache-key-type", "missing key type parameter"],
  ],
  "cache-cluster-invalid": [
    ["loose/keyspace.ts", 4, "cache-outside-service", "cannot determine which service is accessing this cache cluster"],
    ["svc/clusters.ts", 3, "cache-invalid-eviction-policy", "invalid eviction policy: must be one of noeviction, allkeys-lru"],
    [
      "svc/clusters.ts",
      5,
      "duplicate-cache-cluster",
      "cache cluster with this name already defined (previously defined here: svc/clusters.ts:4:24); help: if you wish to reuse the same cluster, export the original CacheCluster object and import it, or use CacheCluster.named()",
    ],
    ["svc/clusters.ts", 8, "cache-cluster-unresolved", "could not resolve cache cluster reference"],
    ["svc/clusters.ts", 10, "cache-keyspace-arguments", "keyspace constructor requires cluster and config arguments"],
    ["svc/clusters.ts", 12, "config-missing-field", "field keyPattern is required but is missing"],
    ["svc/clusters.ts", 13, "config-unexpected-field", "unexpected field"],
  ],
  "static-assets-invalid": [
    ["svc/assets.ts", 3, "static-assets-dir", "unable to read static assets directory: No such file or directory (os error 2)"],
    ["svc/assets.ts", 4, "static-assets-path", "static assets path cannot contain multiple dynamic segments"],
    ["svc/assets.ts", 5, "static-assets-path", "static assets path cannot have static segments after dynamic segments"],
    ["svc/assets.ts", 6, "static-assets-not-found", "file does not exist"],
    ["svc/assets.ts", 7, "static-assets-dir", "static assets must have the 'dir' field set"],
    ["svc/assets.ts", 8, "config-expected-literal", "expected a local relative path"],
    ["svc/assets.ts", 9, "static-assets-headers", "header value must be a string or array of strings"],
    ["svc/assets.ts", 10, "static-assets-dir", "unable to read static assets directory: Not a directory (os error 20)"],
  ],
  "topic-missing-message-type": [["svc/topic.ts", 3, "topic-missing-message-type", "missing message type parameter"]],
  // tsparser/src/parser/resources/infra/sqldb.rs: templates (placeholders as $n) and literal raw queries
  // on the database, through libpg_query; a transaction's queries and non-literal SQL are not checked.
  "invalid-sql": [
    ["svc/named.ts", 4, "invalid-database-query", 'invalid database query: syntax error at or near "FORM"'],
    ["svc/queries.ts", 4, "invalid-database-query", 'invalid database query: syntax error at or near "SELEC"'],
    ["svc/queries.ts", 6, "invalid-database-query", "invalid database query: syntax error at end of input"],
    ["svc/queries.ts", 7, "invalid-database-query", 'invalid database query: syntax error at or near "DELET"'],
  ],
  // type_resolve.rs: typeof an array literal is an empty union (array_lit), which type_index cannot index with number.
  "response-typeof-array-index": [
    ["svc/clicks.ts", 4, "type-resolve", "unsupported indexed access type operation: obj Union(Union { types: [] }) index Basic(Number)"],
  ],
  // type_resolve.rs Ctx::typ: a function type is "unsupported" (Encore prints swc's node; its fields are left out here).
  "response-function-field": [["svc/job.ts", 5, "type-resolve", "unsupported: TsFnOrConstructorType(TsFnType(..))"]],
  // Encore's node resolver has no @types fallback: a package installed only as types does not resolve.
  "types-only-import": [["svc/pad.ts", 2, "unresolved-import", "unable to resolve module left-only: failed to get the node_modules path"]],
  // swc_ecma_parser 0.141 (Encore's) has no `import defer`; the walker parses lib/ too.
  "import-defer": [["lib/report.ts", 1, "syntax-error", "Expected ',', got '*'"]],
  // tsparser/src/parser/parser.rs walks local/ too; usageparser/mod.rs resolves every non-type import.
  "unresolved-import": [
    ["local/tool.ts", 1, "unresolved-import", "unable to resolve module ./missing"],
    ["local/tool.ts", 3, "unresolved-import", "unable to resolve module no-such-package-anywhere"],
  ],
};

function compileErrors(name: string): AppCompileError {
  try {
    analyzeApp(fixture(name));
  } catch (err) {
    if (err instanceof AppCompileError) return err;
    throw err;
  }
  throw new Error(`fixture ${name} compiled without errors`);
}

describe("broken fixtures", () => {
  for (const [name, expected] of Object.entries(CASES)) {
    it(`rejects ${name}`, () => {
      const err = compileErrors(name);
      expect(err.errors.map((e) => [e.loc.file, e.loc.line, e.rule])).toEqual(expected.map(([file, line, rule]) => [file, line, rule]));
      for (const [file, line, rule, text] of expected) {
        expect(err.message).toMatch(new RegExp(`^  ${file}:${line}:\\d+: .*${escape(text)}.*\\[${rule}\\]$`, "m"));
      }
    });
  }
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
