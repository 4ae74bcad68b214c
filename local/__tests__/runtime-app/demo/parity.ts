import { api, type Header } from "encore.dev/api";

// A raw handler that fails after choosing its head: before any body byte ("head") or after one ("body").
export const rawFail = api.raw({ expose: true, method: "GET", path: "/raw-fail/:when" }, async (req, resp) => {
  resp.writeHead(201, { "X-Chosen": "yes" });
  if (req.url?.endsWith("/body")) {
    resp.write("partial");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("raw handler broke");
});

// A typed endpoint that takes at most 32 bytes of body.
export const small = api(
  { expose: true, method: "POST", path: "/small", bodyLimit: 32 },
  async ({ text }: { text: string }): Promise<{ length: number }> => ({
    length: text.length,
  }),
);

interface When {
  at: Date;
  atHeader: Header<Date, "X-At">;
}

// A Date in the body and in a header, to see how each is written.
export const when = api({ expose: true, method: "GET", path: "/when/:ms" }, async ({ ms }: { ms: number }): Promise<When> => ({
  at: new Date(ms),
  atHeader: new Date(ms),
}));
