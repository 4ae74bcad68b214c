// Traces kept on disk: written a batch at a time, read back newest first up to the ring's size, old
// segments deleted once newer ones hold enough, and a line torn by a crash skipped.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TraceStore } from "./store";
import type { TraceRecord } from "./model";

const trace = (id: string, start: number, extra = ""): TraceRecord => ({
  traceId: id,
  start,
  nextEventId: 1,
  spans: [
    {
      traceId: id,
      spanId: `s${id}`,
      kind: "request",
      service: "url",
      start,
      durationMs: 1,
      events: [],
      droppedEvents: 0,
      requestPayload: extra,
    },
  ],
});

describe("TraceStore", () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "trace-store-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it("reads back what a closed store wrote, newest version of a trace once", () => {
    const d = dir();
    const a = new TraceStore(d, { maxTraces: 10, maxBytes: 1 << 20 });
    a.save(trace("t1", 1));
    a.save(trace("t2", 2));
    a.save(trace("t1", 1, "second version"));
    a.close();
    const back = new TraceStore(d, { maxTraces: 10, maxBytes: 1 << 20 }).load();
    expect(back.map((t) => t.traceId).sort()).toEqual(["t1", "t2"]);
    expect(back.find((t) => t.traceId === "t1")!.spans[0].requestPayload).toBe("second version");
  });

  it("keeps at most maxTraces and deletes segments no longer needed", () => {
    const d = dir();
    const s = new TraceStore(d, { maxTraces: 5, maxBytes: 4 * 1024 });
    for (let i = 0; i < 200; i++) {
      s.save(trace(`t${i}`, i, "x".repeat(100)));
      s.flush();
    }
    const back = s.load();
    expect(back.map((t) => t.traceId)).toEqual(["t199", "t198", "t197", "t196", "t195"]);
    const bytes = fs.readdirSync(d).reduce((n, f) => n + fs.statSync(path.join(d, f)).size, 0);
    expect(bytes).toBeLessThan(4 * 1024 * 2);
  });

  it("writes only the newest maxTraces of a batch that outgrew it", () => {
    const d = dir();
    const s = new TraceStore(d, { maxTraces: 3, maxBytes: 1 << 20 });
    for (let i = 0; i < 1000; i++) s.save(trace(`t${i}`, i));
    s.flush();
    const lines = fs.readdirSync(d).flatMap((f) => fs.readFileSync(path.join(d, f), "utf8").trim().split("\n"));
    expect(lines.map((l) => JSON.parse(l).traceId)).toEqual(["t997", "t998", "t999"]);
  });

  it("skips a line torn by a crash and clears everything on request", () => {
    const d = dir();
    const s = new TraceStore(d, { maxTraces: 10, maxBytes: 1 << 20 });
    s.save(trace("whole", 1));
    s.flush();
    const [file] = fs.readdirSync(d);
    fs.appendFileSync(path.join(d, file), '{"traceId":"torn","sta');
    expect(new TraceStore(d, { maxTraces: 10, maxBytes: 1 << 20 }).load().map((t) => t.traceId)).toEqual(["whole"]);
    s.clear();
    expect(new TraceStore(d, { maxTraces: 10, maxBytes: 1 << 20 }).load()).toEqual([]);
  });
});
