import { api, APIError, ErrCode, HttpStatus, type Cookie, type Header, type Query } from "encore.dev/api";
import { currentRequest, type APICallMeta } from "encore.dev";
import { getAuthData } from "~encore/auth";
import { other } from "~encore/clients";
import type { IsEmail, Max, MaxLen, Min, MinLen } from "encore.dev/validate";

interface EchoParams {
  id: string;
  q: string;
  n?: number;
  tags?: string[];
  trace?: Header<"X-Trace">;
  flag?: Query<boolean, "f">;
}

interface Echo {
  id: string;
  q: string;
  n?: number;
  tags?: string[];
  trace?: string;
  flag?: boolean;
}

export const echo = api({ expose: true, method: "GET", path: "/echo/:id" }, async (p: EchoParams): Promise<Echo> => p);

interface CreateParams {
  name: string & MinLen<3> & MaxLen<10>;
  email: string & IsEmail;
  count: number & Min<1> & Max<5>;
  when?: Date;
}

interface Created {
  status: HttpStatus;
  location: Header<"Location">;
  id: string;
  when?: Date;
  year?: number;
}

export const create = api({ expose: true, method: "POST", path: "/items" }, async (p: CreateParams): Promise<Created> => ({
  status: HttpStatus.Created,
  location: `/items/${p.name}`,
  id: p.name,
  when: p.when,
  year: p.when?.getUTCFullYear(),
}));

interface FailParams {
  code: string;
}

export const fail = api({ expose: true, method: "GET", path: "/fail/:code" }, async ({ code }: FailParams): Promise<void> => {
  if (code === "plain") throw new Error("secret internals");
  if (code === "caused") throw APIError.notFound("missing thing", new Error("db row 7"));
  throw new APIError(code as ErrCode, `failed with ${code}`).withDetails({ hint: code });
});

export const nothing = api({ expose: true, method: "POST", path: "/nothing" }, async (): Promise<void> => {});

export const whoami = api({ expose: true, auth: true, method: "GET", path: "/whoami" }, async (): Promise<{ userID: string }> => {
  return { userID: getAuthData()!.userID };
});

/** Echoes the "sid" cookie's value and the fields of the object the handler receives for it, and sets it back as "echo". */
export const readCookie = api(
  { expose: true, method: "GET", path: "/cookie" },
  async ({ sid }: { sid: Cookie<"sid"> }): Promise<{ value: string; fields: string[]; echo: Cookie<"echo"> }> => ({
    value: sid.value,
    fields: Object.keys(sid).sort(),
    echo: { value: sid.value, maxAge: 60, domain: ".example.com", path: "/", sameSite: "None", httpOnly: true },
  }),
);

export const hidden = api({ expose: false, method: "GET", path: "/hidden" }, async (): Promise<{ ok: boolean }> => ({ ok: true }));

export const callOther = api(
  { expose: true, method: "GET", path: "/double/:n" },
  async ({ n }: { n: number }): Promise<{ n: number; sameDate: boolean }> => {
    const at = new Date("2026-01-02T03:04:05.000Z");
    const res = await other.double({ n, at });
    return { n: res.n, sameDate: res.at instanceof Date && res.at.getTime() === at.getTime() };
  },
);

export const rawHello = api.raw({ expose: true, method: "GET", path: "/raw/:name" }, async (req, resp) => {
  resp.setHeader("Content-Type", "text/plain");
  resp.setHeader("X-Raw", "yes");
  resp.statusCode = 202;
  resp.end(`hello ${req.url}`);
});

/** Reports the request it runs in after a nested service call and a pause, so a test sees whose metadata it got. */
export const whoseMeta = api(
  { expose: true, method: "GET", path: "/meta/:id" },
  async ({ id, pauseMs }: { id: string; pauseMs: Query<number> }): Promise<{ id: string; seen: string; endpoint: string }> => {
    await other.double({ n: 1, at: new Date() });
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const meta = currentRequest() as APICallMeta;
    return { id, seen: String(meta.pathParams.id), endpoint: meta.api.endpoint };
  },
);
