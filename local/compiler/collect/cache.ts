// `new CacheCluster(name, { evictionPolicy })`, `CacheCluster.named(name)` and the keyspace
// constructors, with the rules and wording of Encore's tsparser (parser/resources/infra/cache.rs).
import ts from "typescript";
import { declarationOf } from "../base/bind";
import { ParseFailure } from "../base/diagnostics";
import { KEYSPACE_CLASSES, type EncoreRef } from "../base/encore-refs";
import { parseConfigObject, requiredProp, stringLit } from "../base/literal";
import type { CacheClusterModel, EvictionPolicy } from "../../model/app-model";
import { type Pass, locOf, parseEach, serviceOf } from "./pass";
import { parseNamedResource } from "./resource";
import { type SchemaType, resolveSchema, schemaOf } from "./signature";
import { typeText } from "../types/render";
import { isBasic } from "../types/typ";

export interface CacheClusterDecl {
  model: CacheClusterModel;
  node: ts.NewExpression;
}

const EVICTION_POLICIES: readonly EvictionPolicy[] = [
  "noeviction",
  "allkeys-lru",
  "allkeys-lfu",
  "allkeys-random",
  "volatile-lru",
  "volatile-lfu",
  "volatile-ttl",
  "volatile-random",
];

function fail(node: ts.Node, message: string, rule: string): never {
  throw new ParseFailure(node, message, rule);
}

export function collectCacheClusters(pass: Pass): CacheClusterDecl[] {
  const clusters = parseEach(
    pass,
    (r) => r.name === "CacheCluster" && ts.isNewExpression(r.expr),
    (r, rel) => parseCluster(pass, r.expr as ts.NewExpression, rel),
  );
  parseEach(
    pass,
    (r) => r.name === "CacheCluster" && r.member === "named",
    (r) => {
      const arg = (r.expr as ts.CallExpression).arguments[0];
      if (arg === undefined) fail(r.expr, "missing resource name as argument[0]", "resource-name-not-literal");
      return stringLit(arg);
    },
  );
  parseEach(
    pass,
    (r) => (KEYSPACE_CLASSES as readonly string[]).includes(r.name) && ts.isNewExpression(r.expr),
    (r) => checkKeyspace(pass, r),
  );
  return clusters;
}

function parseCluster(pass: Pass, expr: ts.NewExpression, rel: string): CacheClusterDecl {
  const r = parseNamedResource(expr, { configRequired: false, keys: ["evictionPolicy"] });
  const policyNode = r.config?.get("evictionPolicy")?.value;
  const policy = policyNode === undefined ? "allkeys-lru" : stringLit(policyNode);
  if (!(EVICTION_POLICIES as readonly string[]).includes(policy)) {
    fail(
      policyNode as ts.Node,
      "invalid eviction policy: must be one of noeviction, allkeys-lru, allkeys-lfu, allkeys-random, volatile-lru, volatile-lfu, volatile-ttl, or volatile-random",
      "cache-invalid-eviction-policy",
    );
  }
  return { model: { name: r.name, file: rel, loc: locOf(pass, expr), evictionPolicy: policy as EvictionPolicy }, node: expr };
}

function checkKeyspace(pass: Pass, ref: EncoreRef): void {
  const expr = ref.expr as ts.NewExpression;
  const args = expr.arguments ?? [];
  if (args.length < 2) fail(expr, "keyspace constructor requires cluster and config arguments", "cache-keyspace-arguments");
  const [clusterArg, configArg] = args;
  if (ts.isSpreadElement(clusterArg)) fail(clusterArg, "cannot use spread for cluster", "cache-keyspace-arguments");
  if (ts.isSpreadElement(configArg)) fail(configArg, "cannot use spread for config", "cache-keyspace-arguments");
  const config = parseConfigObject(configArg, ["keyPattern", "defaultExpiry"]);
  const patternNode = requiredProp(config, "keyPattern", configArg);
  const pattern = stringLit(patternNode);

  const keyNode = expr.typeArguments?.[0];
  if (keyNode === undefined) fail(expr, "missing key type parameter", "cache-key-type");
  const key = resolveSchema(pass, keyNode);
  if (isBasic(key.typ, "any")) fail(keyNode, "'any' is not supported as a cache key type", "cache-key-type");
  if (isBasic(key.typ, "unknown")) fail(keyNode, "'unknown' is not supported as a cache key type", "cache-key-type");
  if (pattern.startsWith("__encore"))
    fail(patternNode, "the prefix `__encore` is reserved for internal use by Encore", "cache-key-pattern");

  const params = pattern
    .split("/")
    .filter((s) => s.startsWith(":"))
    .map((s) => s.slice(1));
  if (key.typ.t === "basic") {
    if (params.some((p) => p !== "key")) {
      fail(patternNode, "KeyPattern parameter must be named ':key' for basic (non-struct) key types", "cache-key-pattern");
    }
  } else if (!structKeyMatches(pass, key, params, patternNode)) {
    return;
  }

  const valueNode = ref.name === "StructKeyspace" ? expr.typeArguments?.[1] : undefined;
  const value = valueNode === undefined ? null : resolveSchema(pass, valueNode);
  if (value !== null) {
    const v = pass.types.underlying(value.typ);
    if (v.t !== "interface" && v.t !== "class") {
      fail(value.node, "StructKeyspace value type must be an interface or object type", "cache-struct-value-type");
    }
  }
  // legacymeta/mod.rs converts both types but ignores a failed conversion (`.ok()`).
  for (const s of value === null ? [key] : [key, value]) {
    try {
      schemaOf(pass, s);
    } catch (err) {
      if (!(err instanceof ParseFailure)) throw err;
    }
  }
  if (!isClusterReference(pass, clusterArg)) fail(expr, "could not resolve cache cluster reference", "cache-cluster-unresolved");
  // Encore attributes a cluster's use to the service the keyspace is declared in (legacymeta Usage::CacheCluster).
  if (serviceOf(pass, pass.diags.relPath(expr.getSourceFile().fileName)) === null) {
    fail(clusterArg, "cannot determine which service is accessing this cache cluster", "cache-outside-service");
  }
}

/**
 * Struct keys (cache.rs): an interface whose fields are exactly string, number, boolean or bigint,
 * each named in the pattern, and every pattern parameter a field. Reports every mismatch, then gives
 * up on the keyspace, as Encore does.
 */
function structKeyMatches(pass: Pass, key: SchemaType, params: string[], patternNode: ts.Expression): boolean {
  const k = pass.types.underlying(key.typ);
  if (k.t !== "interface") fail(key.node, `unsupported key type: ${typeText(k)}`, "cache-key-type");
  const errorsBefore = pass.diags.errors.length;
  for (const field of k.fields) {
    if (!(field.typ.t === "basic" && ["string", "number", "boolean", "bigint"].includes(field.typ.basic))) {
      pass.diags.error(key.node, `cache key field '${field.name}' must be a basic type (string, number, or boolean)`, "cache-key-pattern");
    } else if (!params.includes(field.name)) {
      pass.diags.error(key.node, `cache key field '${field.name}' is not used in the keyPattern`, "cache-key-pattern");
    }
  }
  for (const param of params) {
    if (!k.fields.some((f) => f.name === param)) {
      pass.diags.error(patternNode, `keyPattern parameter '${param}' does not exist in the key type`, "cache-key-pattern");
    }
  }
  return pass.diags.errors.length === errorsBefore;
}

/** Whether the cluster argument names a variable bound to `new CacheCluster(...)` or `CacheCluster.named(...)`. */
function isClusterReference(pass: Pass, arg: ts.Expression): boolean {
  const decl = declarationOf(arg, pass.checker);
  if (decl === null || !ts.isVariableDeclaration(decl) || decl.initializer === undefined) return false;
  const init = decl.initializer;
  const callee = ts.isNewExpression(init) ? init.expression : ts.isCallExpression(init) ? init.expression : null;
  if (callee === null) return false;
  const target = ts.isPropertyAccessExpression(callee) && callee.name.text === "named" ? callee.expression : callee;
  const sym = pass.checker.getSymbolAtLocation(target);
  const resolved = sym && (sym.flags & ts.SymbolFlags.Alias ? pass.checker.getAliasedSymbol(sym) : sym);
  return resolved?.name === "CacheCluster";
}
