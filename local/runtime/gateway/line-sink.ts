// The access log, written once per event-loop turn: under load, hundreds of request lines leave in
// one write instead of one synchronous write each (stdout is synchronous on pipes and files). Each
// line still leaves within the turn it was logged in, and whatever is pending leaves on exit.
// encore.dev/log's lines stay synchronous: they are few, and a crash must not lose the last ones.

/** Collects lines for a stream and writes them together at the end of the current turn. */
export class LineSink {
  private pending: string[] = [];
  private scheduled = false;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  /** Queues one line (without its newline). */
  write(line: string): void {
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** Writes everything queued so far. */
  readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.join("\n") + "\n";
    this.pending = [];
    this.stream.write(text);
  };
}

/** The access log's sink. */
export const stdoutLines = new LineSink(process.stdout);

process.on("exit", stdoutLines.flush);
