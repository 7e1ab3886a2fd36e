import path from "node:path";
import { onLauncherGone } from "./launcher-watch";
import { agentProviders } from "./orchestrator/agent-providers";
import { createDb, type DbHandle } from "../db/client";
import { env } from "../lib/env";
import { loadDiagnosisConfig } from "../lib/diagnosis/config";
import { Worker, type WorkerOptions } from "./orchestrator/worker";
import { applyHealthReport } from "./orchestrator/health-pause";
import { checkHealth, startHealthMonitor } from "./health";
import { WebhookDispatcher } from "./webhooks";

/** A worker's options from the environment (the worker process and the CLI's in-process worker). */
export function workerOptions(handle: DbHandle, databaseUrl: string): WorkerOptions {
  const e = env();
  return {
    handle,
    databaseUrl,
    workspacesDir: path.join(e.dataDir, "workspaces"),
    allowedBinaries: e.FAULTLINE_ALLOWED_BINARIES,
    recoveryBinaries: e.FAULTLINE_RECOVERY_BINARIES,
    libraryProtocol: e.FAULTLINE_LIBRARY_PROTOCOL,
    llmProviders: e.FAULTLINE_LLM_PROVIDERS,
    approvalTtlMs: e.FAULTLINE_APPROVAL_TTL_MS,
    agentProviders: agentProviders(e),
    leaseMs: e.FAULTLINE_LEASE_MS,
    heartbeatMs: e.FAULTLINE_HEARTBEAT_MS,
    pollMs: e.FAULTLINE_POLL_MS,
    concurrency: e.FAULTLINE_WORKER_CONCURRENCY,
  };
}

/** The worker process: `faultline worker` (the launcher starts one). Needs DATABASE_URL. */
export async function runWorkerProcess(databaseUrl: string): Promise<void> {
  const e = env();
  // A bad AUTONOMOUS_* value stops the worker now, with the variable's name (not at the first failure).
  loadDiagnosisConfig();
  const handle = createDb(databaseUrl, { max: e.FAULTLINE_WORKER_CONCURRENCY + 4, applicationName: "faultline-worker" });
  const worker = new Worker(workerOptions(handle, databaseUrl));
  await worker.start();
  // Health checks every FAULTLINE_HEALTH_INTERVAL_MS: unavailable shared dependencies pause active missions.
  const monitor = startHealthMonitor({
    intervalMs: e.FAULTLINE_HEALTH_INTERVAL_MS,
    check: (slowBefore) => checkHealth({ slowBefore, websocket: false, db: handle.db, workspacesDir: path.join(e.dataDir, "workspaces"), providers: e.FAULTLINE_LLM_PROVIDERS, staleWorkerMs: e.FAULTLINE_LEASE_MS }),
    onReport: (report) => void applyHealthReport(handle.db, worker.id, report, (m) => console.log(`[worker] ${m}`)).catch((err) => console.error(`[worker] health pause failed: ${err instanceof Error ? err.message : err}`)),
    log: (m) => console.log(`[worker] health ${m}`),
  });
  // Webhook deliveries: their own loop beside the missions, never awaited by them.
  const webhooks = new WebhookDispatcher({ db: handle.db, retryBaseMs: e.FAULTLINE_WEBHOOK_RETRY_MS, log: (m) => console.log(`[worker] ${m}`) });
  webhooks.start();
  await new Promise<void>((resolve) => {
    const shutdown = (sig: string) => {
      console.log(`[worker] ${sig}: finishing or releasing held missions…`);
      void Promise.all([worker.stop(), webhooks.stop()]).then(() => resolve());
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
    onLauncherGone(shutdown);
  });
  monitor.stop();
  await handle.close();
}
