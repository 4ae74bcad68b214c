// Whether the signed-in person is a site admin (lib/site-admins.ts): the admin API answers them and
// refuses everyone else, so one call per session tells, shared by the nav and the pages.
import { useEffect, useState } from "preact/hooks";
import { call } from "./api";
import { useSession } from "./session";

/** The answer for one token: a new session asks again. */
let asked: { token: string; admin: Promise<boolean> } | null = null;

function isSiteAdmin(token: string): Promise<boolean> {
  if (asked?.token !== token)
    asked = {
      token,
      admin: call("GET", "/admin/blocklist").then(
        () => true,
        () => false,
      ),
    };
  return asked.admin;
}

/** True once the API has said the session is a site admin's; false before and for everyone else. */
export function useSiteAdmin(): boolean {
  const token = useSession()?.token;
  const [admin, setAdmin] = useState(false);
  useEffect(() => {
    setAdmin(false);
    if (!token) return;
    let live = true;
    void isSiteAdmin(token).then((yes) => live && setAdmin(yes));
    return () => {
      live = false;
    };
  }, [token]);
  return admin;
}
