import { api } from "encore.dev/api";
import type { Min } from "encore.dev/validate";

interface DoubleParams {
  n: number & Min<0>;
  at: Date;
}

interface Doubled {
  n: number;
  at: Date;
}

// A private endpoint, reachable only through ~encore/clients.
export const double = api({ expose: false }, async ({ n, at }: DoubleParams): Promise<Doubled> => ({ n: n * 2, at }));
