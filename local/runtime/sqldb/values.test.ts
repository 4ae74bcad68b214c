// Values in and out, on both engines: the JS values Encore's runtime gives and accepts.
import { expect, it } from "vitest";
import { Decimal, setDecimalConstructor } from "../core/decimal";
import { QueryArgs } from "./cursor";
import { row, rows, describeOnEngines } from "./testkit";

setDecimalConstructor((v) => new Decimal(String(v)));

/** What the SDK's encore.dev/types Decimal looks like to the runtime. */
const sdkDecimal = (value: string) => ({ __encore_decimal: true, value });

const SCHEMA = `
CREATE TYPE mood AS ENUM ('sad', 'happy');
CREATE TABLE v (
  id serial PRIMARY KEY,
  b bool, t text, vc varchar(20), i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, n numeric,
  ts timestamp, tz timestamptz, d date, tm time, j json, jb jsonb, u uuid, by bytea, m mood,
  ia int4[], ta text[], c char(3), iv interval
);`;

describeOnEngines("values", SCHEMA, (t) => {
  it("reads each type as Encore does", async () => {
    const r = await row(
      t.db,
      `SELECT true AS b, 'x'::text AS t, 'y'::varchar AS vc, 'z'::name AS nm, 2::int2 AS i2, 4::int4 AS i4,
              9007199254740993::int8 AS big, 8::int8 AS i8, 12::oid AS o, count(*) AS cnt,
              1.1::float4 AS f4, 2.5::float8 AS f8, 'NaN'::float8 AS nan, 1.50::numeric AS n, sum(3::bigint) AS s,
              '2024-01-02 03:04:05.678901'::timestamp AS ts, '2024-01-02 03:04:05.5+02'::timestamptz AS tz,
              '2024-01-02'::date AS d, '03:04:05.5'::time AS tm, '{"a":[1,null]}'::json AS j, 'null'::jsonb AS jn,
              'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid AS u, '\\x0102ff'::bytea AS by, '10.0.0.1/8'::inet AS inet,
              'happy'::mood AS m, ARRAY[1,NULL,3]::int4[] AS ia, ARRAY['a b','c"d',NULL,'NULL','','b\\s','x,{y}']::text[] AS ta,
              ARRAY['2024-01-02 00:00:00+00']::timestamptz[] AS tza, '[2:3]={p,q}'::text[] AS tb, NULL::int4 AS nul`,
    );
    expect(r).toEqual({
      b: true,
      t: "x",
      vc: "y",
      nm: "z",
      i2: 2,
      i4: 4,
      big: 9007199254740993n,
      i8: 8,
      o: 12,
      cnt: 1,
      f4: Math.fround(1.1),
      f8: 2.5,
      nan: null,
      n: new Decimal("1.5"),
      s: new Decimal("3"),
      ts: new Date("2024-01-02T03:04:05.678Z"),
      tz: new Date("2024-01-02T01:04:05.500Z"),
      d: "2024-01-02",
      tm: "03:04:05.500",
      j: { a: [1, null] },
      jn: null,
      u: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
      by: new Uint8Array([1, 2, 255]).buffer,
      inet: "10.0.0.1/8",
      m: "happy",
      ia: [1, null, 3],
      ta: ["a b", 'c"d', null, "NULL", "", "b\\s", "x,{y}"],
      tza: [new Date("2024-01-02T00:00:00Z")],
      tb: ["p", "q"],
      nul: null,
    });
    expect(r.by).toBeInstanceOf(ArrayBuffer);
    expect(String(r.n)).toBe("1.5");
  });

  it("fails on the types Encore does not support, when the row is read", async () => {
    for (const [sql, type] of [
      ["SELECT 'ab'::char(3) AS c", "bpchar"],
      ["SELECT '1 day'::interval AS c", "interval"],
      ["SELECT 1::money AS c", "money"],
      ["SELECT ARRAY[gen_random_uuid()] AS c", "_uuid"],
    ]) {
      const cursor = await t.db.query(sql, new QueryArgs([]));
      const r = await cursor.next();
      expect(() => r!.values()).toThrow(`unable to parse column c: unsupported type: ${type}`);
    }
    const cursor = await t.db.query("SELECT ARRAY[[1,2],[3,4]] AS c", new QueryArgs([]));
    await expect(cursor.next().then((r) => r!.values())).rejects.toThrow("array contains too many dimensions");
  });

  it("writes parameters of each type and reads them back unchanged", async () => {
    const when = new Date("2024-05-06T07:08:09.123Z");
    const inserted = await row(
      t.db,
      `INSERT INTO v (b, t, vc, i2, i4, i8, f4, f8, n, ts, tz, d, tm, j, jb, u, by, m, ia, ta)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       RETURNING b, t, vc, i2, i4, i8, f4, f8, n, ts, tz, d, tm, j, jb, u, by, m, ia, ta`,
      false,
      "text",
      "vc",
      7,
      -8,
      9007199254740991n,
      0.5,
      1e300,
      sdkDecimal("12.340"),
      when,
      when,
      when,
      "23:59:58",
      { z: 1, a: [true, "s"] },
      "a string",
      "{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}",
      Buffer.from("hi"),
      "sad",
      [1, null, 3],
      ["x,y", 'q"t', "back\\slash", null],
    );
    expect(inserted).toEqual({
      b: false,
      t: "text",
      vc: "vc",
      i2: 7,
      i4: -8,
      i8: 9007199254740991,
      f4: 0.5,
      f8: 1e300,
      n: new Decimal("12.34"),
      ts: when,
      tz: when,
      d: "2024-05-06",
      tm: "23:59:58",
      j: { a: [true, "s"], z: 1 },
      jb: "a string",
      u: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
      by: new Uint8Array(Buffer.from("hi")).buffer,
      m: "sad",
      ia: [1, null, 3],
      ta: ["x,y", 'q"t', "back\\slash", null],
    });
  });

  it("stores null for json as JSON null, as Encore serializes every json parameter", async () => {
    const r = await row(t.db, "INSERT INTO v (jb) VALUES ($1) RETURNING jb, jb IS NULL AS sql_null", null);
    expect(r).toEqual({ jb: null, sql_null: false });
    const r2 = await row(t.db, "INSERT INTO v (t) VALUES ($1) RETURNING t IS NULL AS sql_null", null);
    expect(r2).toEqual({ sql_null: true });
  });

  it("rejects parameters Encore rejects, with its messages", async () => {
    const cases: [string, unknown, string][] = [
      ["SELECT $1::int4 AS x", "42", "error serializing parameter 0: string not supported for column of type int4"],
      ["SELECT $1::int4 AS x", 1.5, "error serializing parameter 0: number 1.5 is not an i32"],
      ["SELECT $1::int2 AS x", 40000, "error serializing parameter 0: number 40000 is not an i16"],
      ["SELECT $1::text AS x", { a: 1 }, "error serializing parameter 0: object not supported for column of type text"],
      ["SELECT $1::time AS x", new Date(), "error serializing parameter 0: unsupported type for DateTime: time"],
      ["SELECT $1::bool AS x", "true", "error serializing parameter 0: string not supported for column of type bool"],
      ["SELECT $1::uuid AS x", "nope", "error serializing parameter 0: unable to parse uuid"],
      ["SELECT $1::timestamptz AS x", "2024-01-02", "error serializing parameter 0: input contains invalid characters"],
      ["SELECT $1::char(3) AS x", "abc", "error serializing parameter 0: cannot convert between the Rust type"],
      ["SELECT $1::int4 AS x, $2::int4 AS y", 1, "expected 2 parameters but got 1"],
    ];
    for (const [sql, value, message] of cases) {
      await expect(t.db.query(sql, new QueryArgs([value])), sql).rejects.toThrow(message);
    }
    expect(() => new QueryArgs([() => 1])).toThrow("JS functions cannot be represented as a serde_json::Value");
  });

  it("converts loosely where Encore does: numbers and booleans to text, Dates to text as RFC 3339", async () => {
    const r = await row(
      t.db,
      "SELECT $1::text AS a, $2::text AS b, $3::text AS c, $4::float8 AS d, $5::numeric AS e",
      42,
      true,
      new Date("2024-01-02T03:04:05Z"),
      7n,
      0.25,
    );
    expect(r).toEqual({ a: "42", b: "true", c: "2024-01-02T03:04:05+00:00", d: 7, e: new Decimal("0.25") });
  });

  it("reports the embedded database's lack of a connection string, or the server's URL", () => {
    if (t.engine.name === "pglite") expect(() => t.db.connString()).toThrow("has no connection string");
    else expect(t.db.connString()).toMatch(/^postgres(ql)?:\/\/.*\/test_u[0-9a-f]+_t[0-9a-f]+$/);
  });

  it("returns rows whose columns keep their names and the last duplicate wins", async () => {
    expect(await rows(t.db, "SELECT 1 AS a, 2 AS a UNION ALL SELECT 3, 4")).toEqual([{ a: 2 }, { a: 4 }]);
  });
});
