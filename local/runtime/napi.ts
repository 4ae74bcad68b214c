// Stands in for encore.dev's dist/internal/runtime/napi/napi.cjs (the native runtime binding).
// The loader hooks (local/hooks) point that one import here; nothing else in the SDK is replaced.
export { Runtime, MetricsRegistry } from "./runtime";
export { Request } from "./core/request";
export { LogLevel, CloudProvider, EnvironmentType, ObjectErrorKind } from "./core/napi-enums";
export { Logger } from "./core/logger";
export { Decimal } from "./core/decimal";
export { ApiCallError } from "./wire/errors";
export { BodyReader, ResponseWriter } from "./gateway/raw";
export { Gateway } from "./gateway/gateway";
export { QueryArgs, Cursor, Row, SqlDatabase, SqlConn, Transaction } from "./sqldb";
export { PubSubTopic, PubSubSubscription } from "./pubsub";
export { Bucket, BucketObject, ListIterator, ListEntry, ObjectAttrs, TypedObjectError } from "./objects";
export { Secret } from "./core/secrets";
export { Stream, Socket, Sink, WebSocketClient, MetricType } from "./core/streams";
export { CacheCluster } from "./cache";
