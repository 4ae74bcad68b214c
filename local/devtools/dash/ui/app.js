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

const TABS = [
  ["", "Status & logs"],
  ["traces", "Traces"],
  ["explorer", "API explorer"],
  ["catalog", "Service catalog"],
  ["flow", "Flow"],
  ["databases", "Databases"],
  ["objects", "Objects"],
  ["cron", "Cron jobs"],
  ["pubsub", "Pub/Sub"],
  ["batches", "Batches"],
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

function View({ route }) {
  const [page, arg] = route;
  switch (page) {
    case "traces":
      return arg ? html`<${TraceView} id=${arg} />` : html`<${TraceList} />`;
    case "explorer":
      return html`<${Explorer} endpoint=${arg} />`;
    case "catalog":
      return html`<${Catalog} />`;
    case "flow":
      return html`<${Flow} />`;
    case "databases":
      return html`<${Databases} />`;
    case "objects":
      return html`<${Objects} />`;
    case "cron":
      return html`<${Cron} />`;
    case "pubsub":
      return html`<${PubSub} />`;
    case "batches":
      return html`<${Batches} />`;
    default:
      return html`<${StatusView} />`;
  }
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
