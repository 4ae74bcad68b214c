// The error values BucketObject methods resolve to; the SDK's unwrapErr (storage/objects/error.ts)
// turns them into ObjectNotFound, PreconditionFailed, InvalidArgument or ObjectsError.
import type { Napi } from "../../model/napi";

/** Same members and values as the native enum (napi.d.cts), which the SDK switches on. */
export enum ObjectErrorKind {
  NotFound = 0,
  PreconditionFailed = 1,
  InvalidArgument = 2,
  Other = 3,
  Internal = 4,
}

export class TypedObjectError implements Napi.TypedObjectError {
  kind: Napi.ObjectErrorKind;

  constructor(
    kind: ObjectErrorKind,
    public message: string,
  ) {
    this.kind = kind as number as Napi.ObjectErrorKind;
  }
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
