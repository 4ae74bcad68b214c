// Loads data once per key, with the API's error message when it fails.
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "./api";

export type Loaded<T> = { state: "loading" } | { state: "error"; message: string; status: number } | { state: "ready"; data: T };

export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [result, setResult] = useState<Loaded<T>>({ state: "loading" });
  useEffect(() => {
    let live = true;
    setResult({ state: "loading" });
    load().then(
      (data) => live && setResult({ state: "ready", data }),
      (err) =>
        live &&
        setResult({
          state: "error",
          message: err instanceof ApiError ? err.message : String(err),
          status: err instanceof ApiError ? err.status : 0,
        }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return result;
}
