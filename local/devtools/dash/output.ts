// The app's output for the dashboard's log stream: every line written to stdout or stderr (access
// log, encore.dev/log lines, start-up messages) is kept in a ring and passed to listeners.

export interface OutputLine {
  seq: number;
  stream: "stdout" | "stderr";
  time: number;
  text: string;
}

export class OutputCapture {
  private readonly lines: OutputLine[] = [];
  private readonly listeners = new Set<(line: OutputLine) => void>();
  private seq = 0;
  private restore: (() => void) | null = null;

  constructor(private readonly capacity = 1000) {}

  /** Tees process.stdout and process.stderr into the ring until stop(). */
  start(): void {
    if (this.restore) return;
    const undo = (["stdout", "stderr"] as const).map((name) => {
      const stream = process[name];
      const original = stream.write;
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        this.add(name, typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"));
        return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
      }) as typeof stream.write;
      return () => (stream.write = original);
    });
    this.restore = () => undo.forEach((f) => f());
  }

  stop(): void {
    this.restore?.();
    this.restore = null;
  }

  /** Records text (split into lines) as written to `stream`. */
  add(stream: OutputLine["stream"], text: string): void {
    for (const part of text.split("\n")) {
      if (part === "") continue;
      const line: OutputLine = { seq: ++this.seq, stream, time: Date.now(), text: part };
      this.lines.push(line);
      if (this.lines.length > this.capacity) this.lines.shift();
      for (const fn of this.listeners) fn(line);
    }
  }

  recent(): OutputLine[] {
    return [...this.lines];
  }

  listen(fn: (line: OutputLine) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
