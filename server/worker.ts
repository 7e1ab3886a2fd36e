import path from "node:path";
import { createDb } from "../db/client";
import { env } from "../lib/env";
import { Worker } from "./orchestrator/worker";

/** The worker process: `faultline worker` (the launcher starts one). Needs DATABASE_URL. */
export async function runWorkerProcess(databaseUrl: string): Promise<void> {
  const e = env();
  const handle = createDb(databaseUrl, { max: e.FAULTLINE_WORKER_CONCURRENCY + 4, applicationName: "faultline-worker" });
  const worker = new Worker({
    handle,
    databaseUrl,
    workspacesDir: path.join(e.dataDir, "workspaces"),
    allowedBinaries: e.FAULTLINE_ALLOWED_BINARIES,
    leaseMs: e.FAULTLINE_LEASE_MS,
    heartbeatMs: e.FAULTLINE_HEARTBEAT_MS,
    pollMs: e.FAULTLINE_POLL_MS,
    concurrency: e.FAULTLINE_WORKER_CONCURRENCY,
  });
  await worker.start();
  await new Promise<void>((resolve) => {
    const shutdown = (sig: string) => {
      console.log(`[worker] ${sig}: finishing or releasing held missions…`);
      void worker.stop().then(resolve);
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  await handle.close();
}
