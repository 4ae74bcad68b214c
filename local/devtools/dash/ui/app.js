/* global location, document, addEventListener, removeEventListener */
// The dashboard's shell: a navigation bar and one view per hash route (#/traces/<id>, #/catalog, ...).
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { StatusView } from "./status.js";
import { TraceList, TraceView } from "./traces.js";
import { Explorer } from "./explorer.js";
import { Catalog } from "./catalog.js";
import { Flow } from "./flow.js";
import { Objects, Cron, PubSub } from "./infra.js";
import { Databases } from "./databases.js";
import { Batches } from "./batches.js";

/** The tabs: hash route, label, and the view it shows for the route's second part (an id, an endpoint). */
const TABS = [
  ["", "Status & logs", () => html`<${StatusView} />`],
  ["traces", "Traces", (id) => (id ? html`<${TraceView} id=${id} />` : html`<${TraceList} />`)],
  ["explorer", "API explorer", (endpoint) => html`<${Explorer} endpoint=${endpoint} />`],
  ["catalog", "Service catalog", () => html`<${Catalog} />`],
  ["flow", "Flow", () => html`<${Flow} />`],
  ["databases", "Databases", () => html`<${Databases} />`],
  ["objects", "Objects", () => html`<${Objects} />`],
  ["cron", "Cron jobs", () => html`<${Cron} />`],
  ["pubsub", "Pub/Sub", () => html`<${PubSub} />`],
  ["batches", "Batches", () => html`<${Batches} />`],
];

function useRoute() {
  const read = () => location.hash.replace(/^#\/?/, "").split("/");
  const [route, setRoute] = useState(read());
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}

/** An unknown route shows the status tab. */
function View({ route: [page, arg] }) {
  const [, , view] = TABS.find(([id]) => id === page) ?? TABS[0];
  return view(arg);
}

function App() {
  const route = useRoute();
  return html`
    <header>
      <strong>Development dashboard</strong>
      <nav>
        ${TABS.map(([id, label]) => html`<a href="#/${id}" class=${route[0] === id ? "active" : ""} data-tab=${id || "status"}>${label}</a>`)}
      </nav>
    </header>
    <main><${View} route=${route} /></main>
  `;
}

render(html`<${App} />`, document.getElementById("app"));
