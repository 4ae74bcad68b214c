// Orders a trace's spans and events into waterfall rows: each span, then its events in time order,
// with the span a service call started right under its call event and the Pub/Sub deliveries of a
// message right under the publish that sent it (deliveries are traces of their own, as in Encore).

/** Rows: { key, type: "span" | "event", kind, depth, start, durationMs, error, record }. */
export function waterfallRows(trace, linked) {
  // The deliveries' own spans (their service calls) are placed under them like the trace's own.
  const spans = [...trace.spans, ...linked.flatMap((t) => t.spans)];
  const deliveries = spans.filter((s) => s.kind === "pubsub_message" && s.traceId !== trace.traceId);
  const placed = new Set();
  const rows = [];

  const addSpan = (s, depth) => {
    if (placed.has(s.spanId)) return;
    placed.add(s.spanId);
    rows.push({
      key: `s:${s.spanId}`,
      type: "span",
      kind: s.kind,
      depth,
      start: s.start,
      durationMs: s.durationMs,
      error: s.error,
      record: s,
    });
    // Spans it started that no event accounts for (the auth call of a request).
    for (const child of spans.filter((c) => c.parentSpanId === s.spanId && c.callerEventId === undefined)) addSpan(child, depth + 1);
    // Event ids are unique within a trace only.
    const callees = (ev) => spans.filter((c) => c.traceId === s.traceId && c.callerEventId === ev.id);
    for (const ev of s.events) {
      rows.push({
        key: `e:${s.spanId}:${ev.id}`,
        type: "event",
        kind: ev.kind,
        depth: depth + 1,
        start: ev.start,
        durationMs: ev.durationMs,
        error: ev.error,
        record: ev,
      });
      if (ev.kind === "rpc_call") for (const callee of callees(ev)) addSpan(callee, depth + 2);
      if (ev.kind === "pubsub_publish")
        for (const d of deliveries.filter((d) => d.messageId === ev.fields.messageId)) addSpan(d, depth + 2);
    }
  };
  for (const s of trace.spans.filter((s) => s.parentSpanId === undefined)) addSpan(s, 0);
  for (const s of spans) addSpan(s, 0);
  return rows;
}

function oneLine(text, max = 120) {
  const s = String(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** The text a row is listed under. */
export function rowLabel(row) {
  const r = row.record;
  const f = r.fields ?? {};
  switch (row.kind) {
    case "request":
      return `${r.service}.${r.endpoint}${r.method ? ` ${r.method} ${r.path}` : ""}${r.responseStatus ? ` → ${r.responseStatus}` : ""}`;
    case "auth":
      return `auth ${r.service}.${r.endpoint}${r.uid ? ` → user ${r.uid}` : ""}`;
    case "pubsub_message":
      return `${r.subscription} ← ${r.topic} (attempt ${r.attempt})`;
    case "db_query":
      return `SQL ${f.database}: ${oneLine(f.query)}`;
    case "db_transaction":
      return `transaction ${f.database}${f.completion ? ` (${f.completion})` : ""}`;
    case "pubsub_publish":
      return `publish ${f.topic}`;
    case "rpc_call":
      return `call ${f.service}.${f.endpoint}`;
    case "cache_call":
      return `cache ${f.write ? "write" : "read"} ${f.operation} ${oneLine(f.keys.join(", "), 60)}${f.result ? ` → ${f.result}` : ""}`;
    case "log":
      return `${f.level} ${oneLine(f.msg)}`;
    default:
      return `${row.kind.replace("bucket_", "bucket ")} ${f.bucket}${f.object ? `/${f.object}` : f.prefix ? ` prefix ${f.prefix}` : ""}`;
  }
}
