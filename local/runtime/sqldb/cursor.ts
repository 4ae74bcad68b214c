// The result objects the SDK iterates: QueryArgs in, Cursor and Row out.
import type { Napi } from "../../model/napi";
import { decodeColumn } from "./decode";
import { checkQueryArg } from "./encode";
import { dbErrorDebug, napiError, type PgErrorFields } from "./errors";
import type { PgType } from "./types";

/** A query's parameters, checked as napi converts them when the SDK constructs QueryArgs. */
export class QueryArgs implements Napi.QueryArgs {
  readonly values: readonly unknown[];
  constructor(params: unknown[]) {
    params.forEach((p) => checkQueryArg(p));
    this.values = params;
  }
}

/** A result column: its name and resolved type. */
export interface Column {
  name: string;
  type: PgType;
}

/** What running a statement produced: rows, or the server's error from executing it. */
export type Outcome = { columns: Column[]; rows: (string | null)[][] } | { failed: PgErrorFields };

/** One result row; values() converts it to JS the way Encore does, throwing on unsupported types. */
export class Row implements Napi.Row {
  constructor(
    private readonly columns: Column[],
    private readonly raw: (string | null)[],
  ) {}

  values(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.columns.forEach((c, i) => {
      out[c.name] = decodeColumn(this.raw[i], c.type, c.name);
    });
    return out;
  }
}

/** The rows of one statement. An execution error surfaces on the first next(), as in Encore. */
export class Cursor implements Napi.Cursor {
  private index = 0;
  private outcome: Outcome;

  constructor(outcome: Outcome) {
    this.outcome = outcome;
  }

  async next(): Promise<Row | null> {
    if ("failed" in this.outcome) {
      const err = this.outcome.failed;
      this.outcome = { columns: [], rows: [] };
      throw napiError(dbErrorDebug(err));
    }
    const raw = this.outcome.rows[this.index];
    if (raw === undefined) return null;
    this.index++;
    return new Row(this.outcome.columns, raw);
  }
}
