// Messages not yet handled by every subscription, kept on disk under `npm start` as the NSQ daemon
// behind `encore run` keeps them: a restart (even after kill -9) delivers them again. An append-only
// file of "published" and "settled" lines, compacted to the pending messages at each start.
import fs from "node:fs";
import path from "node:path";

/** A published message and the subscriptions that have not yet handled it. */
export interface JournaledMessage {
  id: string;
  topic: string;
  wire: string;
  publishedAt: string;
  parentTraceId: string | undefined;
  subscriptions: string[];
}

/** Where the broker records what it still owes its subscriptions. */
export interface Journal {
  /** What the previous run left undelivered, read once at start-up. */
  pending(): JournaledMessage[];
  published(msg: JournaledMessage): void;
  /** The subscription handled the message (or gave up on it after its retries). */
  settled(id: string, subscription: string): void;
}

type Line = { published: JournaledMessage } | { settled: [string, string] };

/** Past this size with nothing pending, the file is emptied rather than grown further. */
const TRUNCATE_WHEN_IDLE_BYTES = 1 << 20;

/** A journal in `<dir>/undelivered.ndjson`. Writes are synchronous so a resolved publish is on disk. */
export class FileJournal implements Journal {
  private readonly file: string;
  private readonly open = new Map<string, JournaledMessage>();
  private readonly leftover: JournaledMessage[];
  private bytes = 0;

  constructor(dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, "undelivered.ndjson");
    for (const line of readLines(this.file)) this.apply(line);
    this.leftover = [...this.open.values()];
    this.rewrite();
  }

  pending(): JournaledMessage[] {
    return this.leftover;
  }

  published(msg: JournaledMessage): void {
    this.apply({ published: msg });
    this.append({ published: msg });
  }

  settled(id: string, subscription: string): void {
    if (!this.open.get(id)?.subscriptions.includes(subscription)) return;
    this.apply({ settled: [id, subscription] });
    if (this.open.size === 0 && this.bytes > TRUNCATE_WHEN_IDLE_BYTES) this.rewrite();
    else this.append({ settled: [id, subscription] });
  }

  private apply(line: Line): void {
    if ("published" in line) {
      this.open.set(line.published.id, { ...line.published, subscriptions: [...line.published.subscriptions] });
      return;
    }
    const [id, subscription] = line.settled;
    const msg = this.open.get(id);
    if (!msg) return;
    msg.subscriptions = msg.subscriptions.filter((s) => s !== subscription);
    if (msg.subscriptions.length === 0) this.open.delete(id);
  }

  private append(line: Line): void {
    const text = JSON.stringify(line) + "\n";
    fs.appendFileSync(this.file, text);
    this.bytes += text.length;
  }

  /** Replaces the file with the pending messages only (through a rename, so a crash keeps one whole file). */
  private rewrite(): void {
    const text = [...this.open.values()].map((m) => JSON.stringify({ published: m }) + "\n").join("");
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, this.file);
    this.bytes = text.length;
  }
}

/** The file's lines; a torn last line (the process died mid-write) is skipped. */
function readLines(file: string): Line[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const lines: Line[] = [];
  for (const raw of text.split("\n")) {
    if (!raw) continue;
    try {
      lines.push(JSON.parse(raw) as Line);
    } catch {
      // Only the last line can be torn; anything else unreadable is skipped the same way.
    }
  }
  return lines;
}
