// `npx tsx local/devtools/e2e/crash-restart.ts [runs=5]`: kill -9 of `npm start` during 200 concurrent shortens
// (and 200 clicks), restart on the same data, and report what survived; exits 1 if any run lost
// anything. Set DATABASE_URL to run it on the PostgreSQL server instead of embedded PGlite.
import { crashDuringBurst, lostNothing } from "./crash-burst";

const runs = Number(process.argv[2] ?? 5);
const engine = process.env.DATABASE_URL ? "PostgreSQL server" : "embedded PGlite";
process.stdout.write(`kill -9 during 200 concurrent shortens, ${runs} runs on ${engine}\n`);
process.stdout.write("run  acked  stored  missing  counted  clicks(acked/stored/sent)  catch-up\n");
let failed = 0;
for (let run = 1; run <= runs; run++) {
  const f = await crashDuringBurst(200);
  const ok = lostNothing(f);
  if (!ok) failed++;
  process.stdout.write(
    `${String(run).padStart(3)}  ${String(f.shortensAcknowledged).padStart(5)}  ${String(f.linksStored).padStart(6)}  ${String(f.missing.length).padStart(7)}  ${String(f.linksCounted).padStart(7)}  ${`${f.clicksAcknowledged}/${f.clicksStored}/${f.clicksSent}`.padStart(25)}  ${(f.catchUpMs / 1000).toFixed(1).padStart(6)} s${ok ? "" : "  LOST"}\n`,
  );
}
process.exit(failed ? 1 : 0);
