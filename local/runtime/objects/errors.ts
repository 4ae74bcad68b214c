// The error values BucketObject methods resolve to; the SDK's unwrapErr (storage/objects/error.ts)
// turns them into ObjectNotFound, PreconditionFailed, InvalidArgument or ObjectsError.
import type { Napi } from "../../model/napi";
import { ObjectErrorKind } from "../core/napi-enums";

export class TypedObjectError implements Napi.TypedObjectError {
  constructor(
    public kind: Napi.ObjectErrorKind,
    public message: string,
  ) {}
}

/** Encore's wording (runtimes/core/src/objects/mod.rs), so messages read the same as under `encore run`. */
export const notFound = (): TypedObjectError => new TypedObjectError(ObjectErrorKind.NotFound, "object not found");
export const preconditionFailed = (): TypedObjectError => new TypedObjectError(ObjectErrorKind.PreconditionFailed, "precondition failed");
export const invalidArgument = (why: string): TypedObjectError =>
  new TypedObjectError(ObjectErrorKind.InvalidArgument, `invalid argument: ${why}`);

/** Runs a bucket operation, returning its expected failures as values the way the native binding does. */
export async function orObjectError<T>(op: () => Promise<T>): Promise<T | TypedObjectError> {
  try {
    return await op();
  } catch (e) {
    if (e instanceof TypedObjectError) return e;
    return new TypedObjectError(ObjectErrorKind.Internal, `internal error: ${(e as Error).message ?? String(e)}`);
  }
}
