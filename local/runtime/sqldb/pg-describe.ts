// Describing a statement on a pg client: Parse + Describe + Sync, reading the server's
// ParameterDescription. pg has no API for it, but accepts any object with submit() as a query
// (the "Submittable" interface that pg-cursor uses).
import type pg from "pg";

interface ProtocolConnection {
  parse(msg: { text: string; name: string; types: number[] }): void;
  describe(msg: { type: "S"; name: string }): void;
  sync(): void;
  on(event: "parameterDescription", fn: (msg: { dataTypeIDs: number[] }) => void): void;
  off(event: "parameterDescription", fn: (msg: { dataTypeIDs: number[] }) => void): void;
}

/** The parameter type OIDs of a statement, as the server infers them. */
export function describeOnClient(client: pg.PoolClient, text: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    let paramTypes: number[] = [];
    let connection: ProtocolConnection | null = null;
    const onParams = (msg: { dataTypeIDs: number[] }) => {
      paramTypes = msg.dataTypeIDs;
    };
    const done = () => connection?.off("parameterDescription", onParams);
    const submittable = {
      submit(con: ProtocolConnection) {
        connection = con;
        con.on("parameterDescription", onParams);
        con.parse({ text, name: "", types: [] });
        con.describe({ type: "S", name: "" });
        con.sync();
      },
      handleRowDescription() {},
      handleParseComplete() {},
      handleReadyForQuery() {
        done();
        resolve(paramTypes);
      },
      handleError(err: Error) {
        done();
        reject(err);
      },
    };
    client.query(submittable as unknown as pg.QueryConfig);
  });
}
