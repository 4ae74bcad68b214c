// The SQL part of the local runtime's native layer (see open.ts for which engine runs where).
export { QueryArgs, Cursor, Row } from "./cursor";
export { SqlDatabase, Transaction, SqlConn, type EngineSpec } from "./database";
export { migrate } from "./migrate";
export { openDatabase, closeAllDatabases, dropTestDatabases, dropDatabasesWithPrefix, engineSpec, testRunId, type EngineEnv } from "./open";
export { detachedFromTransactions } from "./lock";
