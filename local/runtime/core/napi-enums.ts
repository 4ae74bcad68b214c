// The native module's numeric enums, which the SDK reads from it at run time (`runtime.LogLevel.Info`,
// `runtime.ObjectErrorKind.NotFound`): plain objects as napi-rs exports them, each typed by its
// declaration in napi.d.cts, so a value that drifts from the real SDK is a type error.
// (MetricType, a string enum, takes no literal there and stays a TypeScript enum in streams.ts.)
import type { Napi } from "../../model/napi";

export const LogLevel: typeof Napi.LogLevel = { Trace: 1, Debug: 2, Info: 3, Warn: 4, Error: 5 };
export const CloudProvider: typeof Napi.CloudProvider = { AWS: 0, GCP: 1, Azure: 2, Encore: 3, Local: 4 };
export const EnvironmentType: typeof Napi.EnvironmentType = { Production: 0, Development: 1, Ephemeral: 2, Test: 3 };
export const ObjectErrorKind: typeof Napi.ObjectErrorKind = {
  NotFound: 0,
  PreconditionFailed: 1,
  InvalidArgument: 2,
  Other: 3,
  Internal: 4,
};
