// The web app: hash routes (the page itself is only ever served at /), the session, the nav.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { AdminPage } from "./admin-page";
import { AccountMenu } from "./account-menu";
import { AccountPage } from "./account-page";
import { AnalyticsPage } from "./analytics-page";
import { AuthPage } from "./auth-page";
import { LinkEditPage } from "./link-edit-page";
import { LinkPage } from "./link-page";
import { LinksPage } from "./links-page";
import { isReturningVisitor, useSession } from "./session";
import { ShortenPage } from "./shorten-page";
import { useSiteAdmin } from "./site-admin";
import { TeamPage } from "./team-page";
import { WebhooksPage } from "./webhooks-page";
import { WorkspaceSwitcher } from "./workspace";
import "./styles.css";

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return hash;
}

function route(hash: string, signedIn: boolean) {
  const path = hash.replace(/^#/, "") || "/";
  if (path === "/analytics") return <AnalyticsPage />;
  if (!signedIn) return <AuthPage mode={signedOutScreen(path)} />;
  if (path === "/account") return <AccountPage />;
  if (path === "/links") return <LinksPage />;
  if (path === "/team") return <TeamPage />;
  if (path === "/webhooks") return <WebhooksPage />;
  if (path === "/admin") return <AdminPage />;
  const one = /^\/links\/([^/]+)(\/edit)?$/.exec(path);
  if (one) return one[2] ? <LinkEditPage code={decodeURIComponent(one[1])} /> : <LinkPage code={decodeURIComponent(one[1])} />;
  return <ShortenPage />;
}

/**
 * Signed out, #/signup and #/login show their screen; the front page offers a new visitor sign-up and
 * a returning one log in, and any other page (a session that ended there) log in.
 */
function signedOutScreen(path: string): "signup" | "login" {
  if (path === "/signup") return "signup";
  if (path === "/" && !isReturningVisitor()) return "signup";
  return "login";
}

function App() {
  const session = useSession();
  const hash = useHash();
  const admin = useSiteAdmin();
  // Keyboard and screen-reader users land on the new page's heading (not when a token is renewed).
  useEffect(() => {
    document.querySelector<HTMLElement>("main h1")?.focus();
  }, [hash, session?.email]);
  const current = (h: string) => ((hash || "#/") === h ? "page" : undefined);
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.querySelector<HTMLElement>("main h1")?.focus())}>
        Skip to content
      </a>
      <header>
        <div class="bar">
          <a class="brand" href="#/">
            Shortener
          </a>
          {session && (
            <>
              <nav aria-label="Main">
                <a href="#/" aria-current={current("#/")}>
                  Shorten
                </a>
                <a href="#/links" aria-current={current("#/links")}>
                  My links
                </a>
                <a href="#/analytics" aria-current={current("#/analytics")}>
                  Analytics
                </a>
                <a href="#/team" aria-current={current("#/team")}>
                  Team
                </a>
                <a href="#/webhooks" aria-current={current("#/webhooks")}>
                  Webhooks
                </a>
                {admin && (
                  <a href="#/admin" aria-current={current("#/admin")}>
                    Admin
                  </a>
                )}
              </nav>
              <div class="who">
                <WorkspaceSwitcher />
                <AccountMenu session={session} />
              </div>
            </>
          )}
        </div>
      </header>
      <main id="main">{route(hash, session !== null)}</main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
