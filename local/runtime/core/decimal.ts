// NUMERIC values: Encore returns them as encore.dev/types Decimal objects, built through the
// constructor the SDK passes to the runtime. The arithmetic here is exact (scaled bigints).
import type { Napi } from "../../model/napi";

type DecimalCtor = (val: string | number | bigint) => unknown;
let construct: DecimalCtor = (v) => String(v);

export function setDecimalConstructor(ctor: DecimalCtor): void {
  construct = ctor;
}

/** Wraps a NUMERIC column's text as the SDK's Decimal. */
export function toSdkDecimal(text: string): unknown {
  return construct(text);
}

const SCALE = 30n;
const ONE = 10n ** SCALE;

function parse(text: string): bigint {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) throw new Error(`invalid decimal: ${text}`);
  const frac = (m[3] ?? "").padEnd(Number(SCALE), "0").slice(0, Number(SCALE));
  const abs = BigInt(m[2] || "0") * ONE + BigInt(frac || "0");
  return m[1] === "-" ? -abs : abs;
}

function format(v: bigint): string {
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const int = abs / ONE;
  const frac = (abs % ONE).toString().padStart(Number(SCALE), "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${int}${frac ? "." + frac : ""}`;
}

export class Decimal implements Napi.Decimal {
  private readonly v: bigint;
  constructor(value: string) {
    this.v = parse(value);
  }
  private static of(v: bigint): Decimal {
    return new Decimal(format(v));
  }
  toString(): string {
    return format(this.v);
  }
  add(o: Decimal): Decimal {
    return Decimal.of(this.v + o.v);
  }
  sub(o: Decimal): Decimal {
    return Decimal.of(this.v - o.v);
  }
  mul(o: Decimal): Decimal {
    return Decimal.of((this.v * o.v) / ONE);
  }
  div(o: Decimal): Decimal {
    if (o.v === 0n) throw new Error("division by zero");
    return Decimal.of((this.v * ONE) / o.v);
  }
}
