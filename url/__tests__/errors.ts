// Assertions on APIErrors, shared by the url tests.
import { expect } from "vitest";
import { APIError, ErrCode } from "encore.dev/api";

/** rejection awaits a promise that must fail with an APIError and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<APIError> {
  const err = await promise.then(
    () => { throw new Error("expected an APIError, but the call succeeded"); },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(APIError);
  return err as APIError;
}

/** expectAPIError asserts an error's code and message. */
export async function expectAPIError(promise: Promise<unknown>, code: ErrCode, message: string | RegExp): Promise<void> {
  const err = await rejection(promise);
  expect(err.code).toBe(code);
  expect(err.message).toMatch(message);
}
