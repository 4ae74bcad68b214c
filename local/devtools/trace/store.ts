// Finished traces kept on disk, so the dashboard still lists them after a restart (Encore's daemon
// keeps its traces in a database beside the app's data). Appended as JSON lines to segment files in
// <data dir>/traces/, a batch at a time off the request path; the oldest segments are deleted once the
// newer ones hold the ring's worth of traces or the folder outgrows its size cap.
import fs from "node:fs";
import path from "node:path";
import type { TraceRecord } from "./model";

export interface TraceStoreOptions {
  /** Traces to keep: the tracer's ring capacity. */
  maxTraces: number;
  /** Bytes on disk at most (a few segments over it while one is written). */
  maxBytes: number;
}

const SEGMENT = /^traces-(\d{8})\.jsonl$/;
/**
 * Under load every flush writes the ring's worth of traces (a few milliseconds of JSON on the event loop,
 * which every request in flight waits out): once a second, not four times.
 */
const FLUSH_MS = 1000;

/** Newlines in a file, read in chunks (segments are megabytes: never held as one string at start). */
function countLines(file: string): number {
  const buf = Buffer.alloc(64 * 1024);
  const fd = fs.openSync(file, "r");
  try {
    let n = 0;
    for (let got = fs.readSync(fd, buf); got > 0; got = fs.readSync(fd, buf)) {
      for (let i = buf.indexOf(10); i !== -1 && i < got; i = buf.indexOf(10, i + 1)) n++;
    }
    return n;
  } finally {
    fs.closeSync(fd);
  }
}

export class TraceStore {
  private pending: TraceRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private segment: number;
  private started = false;
  /** Lines (traces) per segment, counted once at start and kept up to date by flush. */
  private readonly lines = new Map<number, number>();

  constructor(
    readonly dir: string,
    private readonly options: TraceStoreOptions,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    const existing = this.segments();
    for (const seg of existing) this.lines.set(seg.seq, countLines(seg.file));
    this.segment = Math.max(0, ...existing.map((s) => s.seq));
  }

  /** Segment files, oldest first. */
  private segments(): { seq: number; file: string; size: number }[] {
    return fs
      .readdirSync(this.dir)
      .flatMap((name) => {
        const m = SEGMENT.exec(name);
        if (!m) return [];
        const file = path.join(this.dir, name);
        return [{ seq: Number(m[1]), file, size: fs.statSync(file).size }];
      })
      .sort((a, b) => a.seq - b.seq);
  }

  /** The newest traces kept, up to maxTraces (a trace written twice counts once, as its last version). */
  load(): TraceRecord[] {
    const found = new Map<string, TraceRecord>();
    for (const seg of this.segments().reverse()) {
      const lines = fs.readFileSync(seg.file, "utf8").split("\n").reverse();
      for (const line of lines) {
        if (found.size >= this.options.maxTraces) break;
        if (line.trim() === "") continue;
        try {
          const t = JSON.parse(line) as TraceRecord;
          if (!found.has(t.traceId)) found.set(t.traceId, t);
        } catch {
          // A line torn by a crash mid-write: the traces before it are whole.
        }
      }
      if (found.size >= this.options.maxTraces) break;
    }
    return [...found.values()];
  }

  /**
   * Keeps a finished trace; written within FLUSH_MS, or at close. Under load only the newest maxTraces
   * of a batch are written: older ones would be pruned at once, so they cost no disk and no JSON.
   */
  save(trace: TraceRecord): void {
    if (this.pending.length >= this.options.maxTraces) this.pending.shift();
    this.pending.push(trace);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  /** Writes what is pending, starting a new segment when the current one holds a quarter of the cap. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return;
    const text = this.pending.map((t) => JSON.stringify(t) + "\n").join("");
    const count = this.pending.length;
    this.pending = [];
    const current = path.join(this.dir, `traces-${String(this.segment).padStart(8, "0")}.jsonl`);
    const size = fs.existsSync(current) ? fs.statSync(current).size : 0;
    // A run's first write starts a segment of its own: the last one may end in a line torn by a crash.
    if (!this.started || size > this.options.maxBytes / 4) this.segment++;
    this.started = true;
    fs.appendFileSync(path.join(this.dir, `traces-${String(this.segment).padStart(8, "0")}.jsonl`), text);
    this.lines.set(this.segment, (this.lines.get(this.segment) ?? 0) + count);
    this.prune();
  }

  /** Deletes the oldest segments no longer needed: the newer ones hold maxTraces lines, or are over maxBytes together. */
  private prune(): void {
    let lines = 0;
    let bytes = 0;
    let full = false;
    for (const seg of this.segments().reverse()) {
      if (full) {
        fs.rmSync(seg.file, { force: true });
        this.lines.delete(seg.seq);
        continue;
      }
      lines += this.lines.get(seg.seq) ?? 0;
      bytes += seg.size;
      full = lines >= this.options.maxTraces || bytes >= this.options.maxBytes;
    }
  }

  /** Forgets every trace (the dashboard's Clear). */
  clear(): void {
    this.pending = [];
    for (const seg of this.segments()) fs.rmSync(seg.file, { force: true });
    this.lines.clear();
  }

  close(): void {
    this.flush();
  }
}
