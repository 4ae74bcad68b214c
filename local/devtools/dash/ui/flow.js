/* global document */
// The flow diagram: services, databases, topics, buckets and cron jobs laid out with dagre; service
// calls are solid arrows, publish and subscribe dashed ones.
import { html } from "./html.js";
import { Loading, useJson } from "./api.js";
import dagre from "dagre";

const HEIGHT = { service: 48, database: 40, topic: 40, bucket: 40, cron: 40 };
/** The fonts style.css gives the diagram's text: measured with them, every label fits its box. */
const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";
const NODE_FONT = `13px ${FONT}`;
const EDGE_FONT = `11px ${FONT}`;
const LINE = 13;

let measurer = null;
function textWidth(text, font) {
  measurer ??= document.createElement("canvas").getContext("2d");
  measurer.font = font;
  return measurer.measureText(text).width;
}

function nodeWidth(n) {
  return Math.max(130, textWidth(n.label, NODE_FONT) + 28);
}

/** An edge label's lines: a call edge names one endpoint per line. */
function labelLines(e) {
  return e.label ? e.label.split(", ") : [];
}

/** The box holding every node and edge point (edges routed round a cycle can leave dagre's graph box). */
function bounds(g) {
  const xs = [];
  const ys = [];
  for (const id of g.nodes()) {
    const n = g.node(id);
    xs.push(n.x - n.width / 2, n.x + n.width / 2);
    ys.push(n.y - n.height / 2, n.y + n.height / 2);
  }
  for (const e of g.edges()) {
    const edge = g.edge(e);
    for (const p of edge.points) {
      xs.push(p.x);
      ys.push(p.y);
    }
    if (edge.width) {
      xs.push(edge.x - edge.width / 2, edge.x + edge.width / 2);
      ys.push(edge.y - edge.height / 2, edge.y + edge.height / 2);
    }
  }
  const pad = 16;
  const x = Math.min(...xs) - pad;
  const y = Math.min(...ys) - pad;
  return { x, y, width: Math.max(...xs) + pad - x, height: Math.max(...ys) + pad - y };
}

function layout(flow) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 24, ranksep: 50, edgesep: 12, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of flow.nodes) g.setNode(n.id, { width: nodeWidth(n), height: HEIGHT[n.kind] });
  flow.edges.forEach((e, i) => {
    const lines = labelLines(e);
    // dagre leaves room for a label of this size and puts it at (x, y), clear of the nodes.
    const label = lines.length
      ? { width: Math.max(...lines.map((l) => textWidth(l, EDGE_FONT))) + 10, height: lines.length * LINE + 6, labelpos: "c" }
      : {};
    g.setEdge(e.from, e.to, label, `e${i}`);
  });
  dagre.layout(g);
  return g;
}

function path(points) {
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${p.x},${p.y}`).join(" ");
}

export function Flow() {
  const [flow, error] = useJson("/api/flow");
  if (!flow) return html`<${Loading} error=${error} />`;
  const g = layout(flow);
  const { x, y, width, height } = bounds(g);
  return html`
    <section>
      <h2>Flow</h2>
      <p class="legend">
        <span><svg width="40" height="10"><line x1="0" y1="5" x2="40" y2="5" class="edge call" /></svg> service call</span>
        <span><svg width="40" height="10"><line x1="0" y1="5" x2="40" y2="5" class="edge publish" /></svg> publish / subscribe</span>
      </p>
      <div class="flow-scroll">
      <svg class="flow" data-testid="flow" width=${width} height=${height} viewBox="${x} ${y} ${width} ${height}">
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" fill="#5b6472" />
          </marker>
        </defs>
        ${flow.edges.map((e, i) => {
          const edge = g.edge(e.from, e.to, `e${i}`);
          return html`<g data-testid="edge" data-from=${e.from} data-to=${e.to} data-kind=${e.kind} data-dashed=${String(e.dashed)}>
            <path d=${path(edge.points)} class="edge ${e.kind}" marker-end="url(#arrow)" />
          </g>`;
        })}
        ${flow.edges.map((e, i) => {
          const edge = g.edge(e.from, e.to, `e${i}`);
          const lines = labelLines(e);
          if (!lines.length) return null;
          const top = edge.y - edge.height / 2;
          return html`<g data-testid="edge-label">
            <rect class="edge-label-box" x=${edge.x - edge.width / 2} y=${top} width=${edge.width} height=${edge.height} rx="3" />
            <text class="edge-label" x=${edge.x} y=${top + 3}>
              ${lines.map((l, j) => html`<tspan x=${edge.x} y=${top + 3 + (j + 1) * LINE - 3}>${l}</tspan>`)}
            </text>
          </g>`;
        })}
        ${flow.nodes.map((n) => {
          const p = g.node(n.id);
          return html`<g data-testid="node" data-id=${n.id} class="node ${n.kind}" transform="translate(${p.x - p.width / 2},${p.y - p.height / 2})">
            <rect width=${p.width} height=${p.height} rx=${n.kind === "service" ? 8 : n.kind === "database" ? 14 : 4} />
            <text x=${p.width / 2} y=${p.height / 2 - 6} class="kind">${n.kind}</text>
            <text x=${p.width / 2} y=${p.height / 2 + 10}>${n.label}</text>
          </g>`;
        })}
      </svg>
      </div>
    </section>
  `;
}
