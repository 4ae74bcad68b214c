import { api } from "encore.dev/api";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { secret } from "encore.dev/config";

const db = new SQLDatabase("demo", { migrations: "./migrations" });
const demoSecret = secret("DemoSecret");

export const addNote = api(
  { expose: true, method: "POST", path: "/notes" },
  async ({ text }: { text: string }): Promise<{ id: number; total: number }> => {
    const row = await db.queryRow<{ id: number }>`INSERT INTO notes (text) VALUES (${text}) RETURNING id`;
    const count = await db.queryRow<{ n: number }>`SELECT COUNT(*) AS n FROM notes`;
    return { id: row!.id, total: count!.n };
  },
);

export const secretState = api({ expose: true, method: "GET", path: "/secret" }, async (): Promise<{ length: number }> => ({
  length: demoSecret().length,
}));
