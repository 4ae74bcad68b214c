// Whether the signed-in person is a site admin (lib/site-admins.ts): the admin API answers them and
// refuses everyone else, so one call per session tells, shared by the nav and the pages.
import { useEffect, useState } from "preact/hooks";
import { call } from "./api";
import { useSession } from "./session";

/** The answer for one account: another account asks again (renewing the token does not). */
let asked: { email: string; admin: Promise<boolean> } | null = null;

function isSiteAdmin(email: string): Promise<boolean> {
  if (asked?.email !== email)
    asked = {
      email,
      admin: call("GET", "/admin/blocklist").then(
        () => true,
        () => false,
      ),
    };
  return asked.admin;
}

/** True once the API has said the session is a site admin's; false before and for everyone else. */
export function useSiteAdmin(): boolean {
  const email = useSession()?.email;
  const [admin, setAdmin] = useState(false);
  useEffect(() => {
    setAdmin(false);
    if (!email) {
      asked = null; // Signed out: whoever signs in next is asked afresh.
      return;
    }
    let live = true;
    void isSiteAdmin(email).then((yes) => live && setAdmin(yes));
    return () => {
      live = false;
    };
  }, [email]);
  return admin;
}
