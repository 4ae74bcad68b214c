// The declarations of Encore's native runtime (napi.d.cts, shipped in the encore.dev package).
// Every class in local/runtime implements these, so a drift from the real SDK is a type error.
import type * as Napi from "../../node_modules/encore.dev/internal/runtime/napi/napi.cjs";

export type { Napi };
