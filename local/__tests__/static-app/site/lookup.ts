import { api } from "encore.dev/api";

/** Stands in for a short-link lookup: any single segment. */
export const lookup = api(
  { expose: true, method: "GET", path: "/:code" },
  async ({ code }: { code: string }): Promise<{ code: string }> => ({ code }),
);
