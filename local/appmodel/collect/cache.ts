// `new CacheCluster(name, { evictionPolicy })`, `CacheCluster.named(name)` and the keyspace
// constructors, with the rules and wording of Encore's tsparser (parser/resources/infra/cache.rs).
import ts from "typescript";
import { declarationOf } from "../bind";
import { ParseFailure } from "../diagnostics";
import { KEYSPACE_CLASSES, type EncoreRef } from "../encore-refs";
import { parseConfigObject, requiredProp, stringLit } from "../literal";
import type { CacheClusterModel, EvictionPolicy } from "../model";
import { type Pass, locOf, parseEach, serviceOf } from "../pass";
import { parseNamedResource } from "./resource";

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

/** Whether a key type is one of Encore's basic types (string, number, boolean, bigint and the like). */
function isBasic(type: ts.Type): boolean {
  const basic = ts.TypeFlags.String | ts.TypeFlags.Number | ts.TypeFlags.Boolean | ts.TypeFlags.BigInt;
  return (type.flags & basic) !== 0;
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
  const keyType = pass.checker.getTypeFromTypeNode(keyNode);
  if (keyType.flags & ts.TypeFlags.Any) fail(keyNode, "'any' is not supported as a cache key type", "cache-key-type");
  if (keyType.flags & ts.TypeFlags.Unknown) fail(keyNode, "'unknown' is not supported as a cache key type", "cache-key-type");
  if (pattern.startsWith("__encore"))
    fail(patternNode, "the prefix `__encore` is reserved for internal use by Encore", "cache-key-pattern");

  const params = pattern
    .split("/")
    .filter((s) => s.startsWith(":"))
    .map((s) => s.slice(1));
  if (isBasic(keyType)) {
    if (params.some((p) => p !== "key")) {
      fail(patternNode, "KeyPattern parameter must be named ':key' for basic (non-struct) key types", "cache-key-pattern");
    }
  } else if (!structKeyMatches(pass, keyNode, keyType, params, patternNode)) {
    return;
  }

  if (ref.name === "StructKeyspace" && expr.typeArguments?.[1] !== undefined) {
    const valueNode = expr.typeArguments[1];
    if (!isObjectShape(pass.checker.getTypeFromTypeNode(valueNode), true)) {
      fail(valueNode, "StructKeyspace value type must be an interface or object type", "cache-struct-value-type");
    }
  }
  if (!isClusterReference(pass, clusterArg)) fail(expr, "could not resolve cache cluster reference", "cache-cluster-unresolved");
  // Encore attributes a cluster's use to the service the keyspace is declared in (legacymeta Usage::CacheCluster).
  if (serviceOf(pass, pass.diags.relPath(expr.getSourceFile().fileName)) === null) {
    fail(clusterArg, "cannot determine which service is accessing this cache cluster", "cache-outside-service");
  }
}

/** An interface or object literal type (Encore's Type::Interface), or a class when `classes` allows it. */
function isObjectShape(type: ts.Type, classes: boolean): boolean {
  if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return false;
  const isClass = (type.symbol?.flags ?? 0) & ts.SymbolFlags.Class;
  return classes || !isClass;
}

/**
 * Struct keys: fields of basic types, each named in the pattern, and every pattern parameter a field.
 * Like Encore, reports every mismatch and then gives up on the keyspace.
 */
function structKeyMatches(pass: Pass, keyNode: ts.TypeNode, keyType: ts.Type, params: string[], patternNode: ts.Expression): boolean {
  if (!isObjectShape(keyType, false)) fail(keyNode, `unsupported key type: ${pass.checker.typeToString(keyType)}`, "cache-key-type");
  const errorsBefore = pass.diags.errors.length;
  const fields = keyType.getProperties();
  for (const field of fields) {
    const fieldType = pass.checker.getNonNullableType(pass.checker.getTypeOfSymbolAtLocation(field, keyNode));
    if (!isBasic(fieldType)) {
      pass.diags.error(keyNode, `cache key field '${field.name}' must be a basic type (string, number, or boolean)`, "cache-key-pattern");
    } else if (!params.includes(field.name)) {
      pass.diags.error(keyNode, `cache key field '${field.name}' is not used in the keyPattern`, "cache-key-pattern");
    }
  }
  for (const param of params) {
    if (!fields.some((f) => f.name === param)) {
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
