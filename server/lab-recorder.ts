import type { Db } from "../db/client";
import { extractSimulationDrafts, failSuiteRun, finishSuiteRun, recordLabRun, startSuiteRun } from "../db/queries/lab";
import { loadStarterLibrary } from "../db/queries/library";
import { ensureActor } from "../db/queries/users";
import { starterLibrary, SYSTEM_ACTOR } from "../db/seed";
import type { AuditActor } from "../lib/audit";
import type { LabRecorder } from "./lab-command";

/**
 * The recorder on a database: the suite run's rows (db/queries/lab.ts), then simulation extraction over
 * every recorded run, on the starter library when the library is empty (as `faultline library` does).
 */
export function databaseRecorder(db: Db, actor: AuditActor, close: () => Promise<void>): LabRecorder {
  let id: string | null = null;
  // Interrupted (Ctrl-C, a stop): the suite run is marked stopped, not left "running" on the Lab page.
  const onSignal = (signal: NodeJS.Signals) => {
    const exit = () => process.exit(signal === "SIGINT" ? 130 : 143);
    if (!id) return exit();
    void failSuiteRun(db, id, `interrupted by ${signal} before the suite run ended`).then(close).finally(exit);
  };
  return {
    async start(p) {
      id = (await startSuiteRun(db, { ...p, actor })).id;
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      return id;
    },
    async run(p) {
      await recordLabRun(db, id!, p);
    },
    async finish(report) {
      await finishSuiteRun(db, id!, report);
      await ensureActor(db, { id: SYSTEM_ACTOR, kind: "system", displayName: "Faultline seed" });
      await loadStarterLibrary(db, starterLibrary(), SYSTEM_ACTOR);
      const x = await extractSimulationDrafts(db, { actor });
      const parts = [`${x.created.length} new draft contribution(s) for reviewers`, `${x.covered.length} recurring failure(s) the library covers`];
      if (x.unanswered.length) parts.push(`${x.unanswered.length} not decided (the library query failed: ${x.unanswered[0].error})`);
      return `Simulation extraction: ${parts.join(", ")}.`;
    },
    async fail(error) {
      if (id) await failSuiteRun(db, id, error);
    },
    async close() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      await close();
    },
  };
}
