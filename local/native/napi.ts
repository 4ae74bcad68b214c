// Stands in for encore.dev's dist/internal/runtime/napi/napi.cjs (the native runtime binding).
// The loader hooks (local/hooks) point that one import here; nothing else in the SDK is replaced.
export { Runtime, MetricsRegistry } from "./runtime";
export { Request } from "./request";
export { CloudProvider, EnvironmentType } from "./meta";
export { LogLevel, Logger } from "./logger";
export { Decimal } from "./decimal";
export { ApiCallError } from "./api/errors";
export { BodyReader, ResponseWriter } from "./api/raw";
export { Gateway } from "./api/gateway";
export { QueryArgs, Cursor, Row, SqlDatabase, SqlConn, Transaction } from "./sqldb";
export { PubSubTopic, PubSubSubscription } from "./pubsub";
export { Bucket, BucketObject, ListIterator, ListEntry, ObjectAttrs, TypedObjectError, ObjectErrorKind } from "./objects";
export { Secret } from "./secrets";
export { Stream, Socket, Sink, WebSocketClient, MetricType } from "./streams";
export { CacheCluster } from "./cache";
