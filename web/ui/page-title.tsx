// Each page names itself in the browser's tab, history and bookmarks: "My links · Shortener".
import { useEffect } from "preact/hooks";

/** The app's name, after each page's own. */
export const APP_NAME = "Shortener";

/** Sets the document's title to `page` and the app's name while the calling page is shown. */
export function usePageTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} · ${APP_NAME}`;
  }, [page]);
}
