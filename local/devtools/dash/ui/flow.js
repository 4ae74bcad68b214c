// The flow diagram: services, databases, topics, buckets and cron jobs laid out with dagre; service
// calls are solid arrows, publish and subscribe dashed ones.
import { html } from "./html.js";
import { Loading, useJson } from "./api.js";
import dagre from "dagre";

const HEIGHT = { service: 48, database: 40, topic: 40, bucket: 40, cron: 40 };

/** Wide enough for the label at 13px. */
function nodeWidth(n) {
  return Math.max(130, n.label.length * 7.6 + 28);
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
  for (const e of g.edges())
    for (const p of g.edge(e).points) {
      xs.push(p.x);
      ys.push(p.y - 14);
    }
  const pad = 16;
  const x = Math.min(...xs) - pad;
  const y = Math.min(...ys) - pad;
  return { x, y, width: Math.max(...xs) + pad - x, height: Math.max(...ys) + pad - y };
}

function layout(flow) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 30, ranksep: 80, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of flow.nodes) g.setNode(n.id, { width: nodeWidth(n), height: HEIGHT[n.kind] });
  flow.edges.forEach((e, i) => g.setEdge(e.from, e.to, {}, `e${i}`));
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
      <svg class="flow" data-testid="flow" width=${width} height=${height} viewBox="${x} ${y} ${width} ${height}">
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" fill="#5b6472" />
          </marker>
        </defs>
        ${flow.edges.map((e, i) => {
          const pts = g.edge(e.from, e.to, `e${i}`).points;
          const mid = pts[Math.floor(pts.length / 2)];
          return html`<g data-testid="edge" data-from=${e.from} data-to=${e.to} data-kind=${e.kind} data-dashed=${String(e.dashed)}>
            <path d=${path(pts)} class="edge ${e.kind}" marker-end="url(#arrow)" />
            ${e.label ? html`<text x=${mid.x} y=${mid.y - 4} class="edge-label">${e.label}</text>` : null}
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
    </section>
  `;
}
