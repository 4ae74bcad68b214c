// The app model: what Encore's compiler (tsparser) learns about an app and hands to its
// runtime as metadata. The local runtime builds it with the TypeScript compiler API
// (see analyze.ts) and every other part of local/ reads only this, never the sources.
// All file paths are relative to the app root, with forward slashes.

/** A source position, 1-based, for error messages that name the file and line. */
export interface Loc {
  file: string;
  line: number;
  column: number;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS" | "TRACE" | "CONNECT";

/** A validation expression from encore.dev/validate (MinLen<3> & (IsEmail | IsURL)). */
export type ValidationExpr =
  | { rule: "minLen" | "maxLen"; value: number }
  | { rule: "minValue" | "maxValue"; value: number }
  | { rule: "startsWith" | "endsWith" | "matchesRegexp"; value: string }
  | { rule: "isEmail" | "isURL" }
  | { and: ValidationExpr[] }
  | { or: ValidationExpr[] };

/** A type as the wire sees it. */
export type TypeSchema =
  | { kind: "string" | "number" | "boolean" | "date" | "any" | "null" | "decimal" | "bigint" | "bytes" }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "array"; elem: TypeSchema }
  | { kind: "object"; fields: FieldSchema[] }
  /** Record<string, V> / index signatures. */
  | { kind: "map"; value: TypeSchema }
  | { kind: "union"; types: TypeSchema[] }
  /** A base type carrying encore.dev/validate rules. */
  | { kind: "validated"; base: TypeSchema; expr: ValidationExpr };

/**
 * Where a top-level field of a request or response travels.
 * "default" means: path if the endpoint path names it, else the query string for
 * GET/HEAD/DELETE requests and the JSON body otherwise (decided per request method).
 */
export type FieldLocation = "default" | "path" | "header" | "query" | "cookie" | "httpstatus";

export interface FieldSchema {
  /** The TypeScript property name. */
  name: string;
  /** The name on the wire: header name for Header<"X-Foo">, query key for Query<"k">, JSON key otherwise. */
  wireName: string;
  optional: boolean;
  location: FieldLocation;
  type: TypeSchema;
}

/** A request or response type: always an object (Encore rejects anything else). */
export interface ObjectSchema {
  fields: FieldSchema[];
}

export interface ServiceModel {
  name: string;
  /** Directory of the service, relative to the app root ("url"). */
  dir: string;
  /** Its encore.service.ts. */
  file: string;
}

export interface EndpointModel {
  service: string;
  /** The exported variable name, which is the endpoint name. */
  name: string;
  file: string;
  loc: Loc;
  methods: HttpMethod[];
  /** The path as written ("/:code/stats"), or the default "/service.endpoint". */
  path: string;
  expose: boolean;
  auth: boolean;
  raw: boolean;
  /** Bytes; null means unlimited. Default 2 MiB. */
  bodyLimit: number | null;
  tags: string[];
  sensitive: boolean;
  /** The doc comment above the endpoint, for the catalog. */
  doc: string | null;
  /** null when the handler takes no parameters. */
  request: ObjectSchema | null;
  /** null for Promise<void> (or no annotation: Encore then sends an empty body). */
  response: ObjectSchema | null;
  /** Set for `api.static`: files served straight from disk, no handler (methods are GET and HEAD). */
  staticAssets: StaticAssetsModel | null;
}

/** What `api.static` serves (Encore's meta.rpc.StaticAssets). Paths are app-relative. */
export interface StaticAssetsModel {
  dir: string;
  /** Served when no file matches, with notFoundStatus (404 when null). */
  notFound: string | null;
  notFoundStatus: number | null;
  /** Added to every file served. */
  headers: Record<string, string[]>;
}

export interface GatewayModel {
  /** The exported variable name. */
  name: string;
  file: string;
  service: string;
  loc: Loc;
}

export interface AuthHandlerModel {
  name: string;
  file: string;
  service: string;
  loc: Loc;
  /** Every field is a header, query or cookie parameter. */
  params: ObjectSchema;
  /** The returned auth data type (must contain userID: string). */
  authData: ObjectSchema;
}

export interface DatabaseModel {
  name: string;
  /** The service whose directory declares it. */
  service: string;
  file: string;
  loc: Loc;
  /** Absolute path of the migrations directory, or null when none is configured. */
  migrationsDir: string | null;
  /** Migrations sorted by number. */
  migrations: { number: number; description: string; file: string }[];
}

export interface TopicModel {
  name: string;
  file: string;
  loc: Loc;
  deliveryGuarantee: "at-least-once" | "exactly-once";
  orderingAttribute: string | null;
  message: ObjectSchema;
  /** Services that publish to it. */
  publishers: string[];
}

export interface SubscriptionModel {
  topic: string;
  name: string;
  service: string;
  file: string;
  loc: Loc;
  /** Milliseconds, defaults applied: ackDeadline 30s, retention 7d, minBackoff 10s, maxBackoff 10m, maxRetries 100. */
  ackDeadlineMs: number;
  messageRetentionMs: number;
  minBackoffMs: number;
  maxBackoffMs: number;
  maxRetries: number;
  /** Absent means the runtime default (100 in flight). */
  maxConcurrency: number | null;
}

export interface CronJobModel {
  id: string;
  title: string | null;
  file: string;
  loc: Loc;
  /** Exactly one of schedule / everyMs. */
  schedule: string | null;
  everyMs: number | null;
  /** The endpoint it calls. */
  endpoint: { service: string; name: string };
}

export interface BucketModel {
  name: string;
  file: string;
  loc: Loc;
  public: boolean;
  versioned: boolean;
  /** Services that use it. */
  usedBy: string[];
}

/** A service calling another service's endpoint through ~encore/clients. */
export interface ServiceCall {
  from: string;
  to: string;
  endpoint: string;
}

/** Redis's eviction policies, as `new CacheCluster(name, { evictionPolicy })` names them. */
export type EvictionPolicy =
  "noeviction" | "allkeys-lru" | "allkeys-lfu" | "allkeys-random" | "volatile-lru" | "volatile-lfu" | "volatile-ttl" | "volatile-random";

export interface CacheClusterModel {
  name: string;
  file: string;
  loc: Loc;
  /** Default allkeys-lru. */
  evictionPolicy: EvictionPolicy;
}

export interface SecretModel {
  name: string;
  service: string | null;
  file: string;
  loc: Loc;
}

export interface AppModel {
  /** Absolute path of the app root (the directory holding encore.app). */
  root: string;
  services: ServiceModel[];
  endpoints: EndpointModel[];
  gateways: GatewayModel[];
  authHandler: AuthHandlerModel | null;
  databases: DatabaseModel[];
  topics: TopicModel[];
  subscriptions: SubscriptionModel[];
  cronJobs: CronJobModel[];
  buckets: BucketModel[];
  cacheClusters: CacheClusterModel[];
  secrets: SecretModel[];
  serviceCalls: ServiceCall[];
}

/** A violation of a compile-time rule, worded as Encore words it where Encore has the rule. */
export interface CompileError {
  loc: Loc;
  message: string;
  /** Short rule id, e.g. "service-outside-service-file", for tests. */
  rule: string;
}

/** Thrown by analyzeApp when the app would not compile under Encore. */
export class AppCompileError extends Error {
  constructor(public readonly errors: CompileError[]) {
    super(
      "the app does not compile under Encore's rules:\n" +
        errors.map((e) => `  ${e.loc.file}:${e.loc.line}:${e.loc.column}: ${e.message} [${e.rule}]`).join("\n"),
    );
    this.name = "AppCompileError";
  }
}
