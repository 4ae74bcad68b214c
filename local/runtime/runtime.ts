// Our stand-in for Encore's native Runtime (Rust, loaded through napi): the encore.dev SDK's
// own JavaScript runs unchanged on top of it, calling these methods exactly as it calls the real one.
import type { Napi } from "../model/napi";
import { appMeta } from "./core/meta";
import { rootLogger } from "./core/logger";
import { openDatabase } from "./sqldb";
import { openTopic, openSubscription } from "./pubsub";
import { openBucket } from "./objects";
import { lookupSecret } from "./core/secrets";
import { registerGateway } from "./gateway/gateway";
import { registerRoutes } from "./gateway/registry";
import { apiCall } from "./gateway/calls";
import { onShutdown, runForever } from "./lifecycle/run";
import { closeCaches, openCacheCluster } from "./cache";
import { setDecimalConstructor } from "./core/decimal";
import { unsupported } from "./core/unsupported";

export class MetricsRegistry implements Napi.MetricsRegistry {
  private slots = 0;
  allocateSlot(): number {
    return this.slots++;
  }
  slotCount(): number {
    return this.slots;
  }
}

export class Runtime implements Napi.Runtime {
  private metrics = new MetricsRegistry();

  constructor(options: Napi.RuntimeOptions) {
    setDecimalConstructor(options.typeConstructors.decimal);
  }

  /** Serves every registered endpoint until SIGINT/SIGTERM; resolves to the exit code. */
  runForever(): Promise<number> {
    onShutdown(closeCaches);
    return runForever();
  }
  sqlDatabase(encoreName: string) {
    return openDatabase(encoreName);
  }
  pubsubTopic(encoreName: string) {
    return openTopic(encoreName);
  }
  bucket(encoreName: string) {
    return openBucket(encoreName);
  }
  cacheCluster(encoreName: string) {
    return openCacheCluster(encoreName);
  }
  gateway(encoreName: string, cfg: Napi.GatewayConfig) {
    return registerGateway(encoreName, cfg);
  }
  logger() {
    return rootLogger;
  }
  pubsubSubscription(cfg: Napi.PubSubSubscriptionConfig) {
    return openSubscription(cfg);
  }
  registerHandler(route: Napi.ApiRoute): void {
    registerRoutes([route]);
  }
  registerTestHandler(route: Napi.ApiRoute): void {
    registerRoutes([route]);
  }
  registerHandlers(routes: Napi.ApiRoute[]): void {
    registerRoutes(routes);
  }
  secret(encoreName: string) {
    return lookupSecret(encoreName);
  }
  apiCall(service: string, endpoint: string, payload?: unknown, source?: Napi.Request | null, opts?: Napi.CallOpts | null) {
    return apiCall(service, endpoint, payload, source ?? null, opts ?? null);
  }
  stream(service: string, endpoint: string): Promise<Napi.WebSocketClient> {
    return Promise.reject(unsupported(`streaming endpoint ${service}.${endpoint}`));
  }
  static version(): string {
    return "local";
  }
  static buildCommit(): string {
    return "local";
  }
  appMeta(): Napi.AppMeta {
    return appMeta();
  }
  runtimeConfig(): Napi.RuntimeConfig {
    return { metrics: {} };
  }
  numWorkerThreads(): number {
    return 1;
  }
  createMetricsRegistry(): void {}
  getMetricsRegistry(): Napi.MetricsRegistry {
    return this.metrics;
  }
}
