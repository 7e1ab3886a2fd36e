import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createDb } from "../db/client";
import { ensureDatabase } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { ensureActor } from "../db/queries/users";
import { seedDatabase, SYSTEM_ACTOR } from "../db/seed";
import { env } from "../lib/env";
import { loadDiagnosisConfig } from "../lib/diagnosis/config";
import { ensureBuild, ROOT } from "./build";
import { onNpmGone } from "./launcher-watch";
import { labRun } from "./lab-command";
import { databaseRecorder } from "./lab-recorder";
import { startReplayServer } from "./model-replay";

const BIN = path.join(ROOT, "bin", "faultline.mjs");

/** NEXTAUTH_SECRET from the environment, else one generated once and kept in the data directory. */
export function sessionSecret(dataDir: string): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = path.join(dataDir, "session-secret");
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  return fs.readFileSync(file, "utf8").trim();
}

/** Prepares a database for use: connects (starting the embedded server if needed), migrates, seeds when empty. */
export async function prepareDatabase(opts: { seed: boolean; log: (m: string) => void }) {
  const e = env();
  const handle = await ensureDatabase({ dataDir: e.dataDir, databaseUrl: e.DATABASE_URL, log: opts.log });
  await runMigrations(handle.url);
  let seeded = null;
  if (opts.seed) {
    const db = createDb(handle.url, { max: 2, applicationName: "faultline-seed" });
    try {
      seeded = await seedDatabase(db.db, { demoUsers: e.FAULTLINE_DEMO_USERS });
    } finally {
      await db.close();
    }
  }
  return { handle, seeded };
}

/**
 * The demo's Lab page is not empty: on the first start in demo mode, the default suite (lab/default.yaml,
 * seed 1, three repeats: about two seconds) runs headless and is recorded as a suite run, with its traces
 * in the data directory and simulation extraction after it, as `faultline lab run` records one. A failure
 * is said and does not stop the start.
 */
export async function recordDemoLabRun(url: string, dataDir: string, log: (m: string) => void): Promise<void> {
  const db = createDb(url, { max: 2, applicationName: "faultline-seed" });
  const actor = { id: SYSTEM_ACTOR, name: "Faultline seed", via: "system" as const };
  const lines: string[] = [];
  try {
    await ensureActor(db.db, { id: SYSTEM_ACTOR, kind: "system", displayName: "Faultline seed" });
    const code = await labRun(
      { out: () => {}, err: (l) => lines.push(l) },
      { file: path.join(ROOT, "lab", "default.yaml"), seed: "1", repeat: "3", json: false, traces: path.join(dataDir, "lab-runs", "default", "seed-1"), record: async () => databaseRecorder(db.db, actor, async () => {}) },
    );
    log(`demo lab run (lab/default.yaml, seed 1, 3 repeats)${code === 0 ? "" : " finished with errors"}: ${lines.join(" ")}`);
  } catch (err) {
    log(`the demo lab run could not be recorded (${err instanceof Error ? err.message.split("\n")[0] : String(err)}); the Lab page stays empty until one is run: npx faultline lab run lab/default.yaml`);
  } finally {
    await db.close();
  }
}

/**
 * `npm start`: database, migrations, seed, build if needed, then web + one worker. A worker that dies
 * is restarted. Ctrl-C (SIGINT), SIGTERM, SIGHUP, or npm's exit under `npm start`, stops web and worker, then
 * the embedded PostgreSQL if this process started it.
 */
export async function runLauncher(): Promise<void> {
  const e = env();
  // ADR-0003 flags too: a bad value stops the start here rather than a worker that restarts forever.
  loadDiagnosisConfig();
  const log = (m: string) => console.log(`[faultline] ${m}`);
  fs.mkdirSync(e.dataDir, { recursive: true });
  const { handle, seeded } = await prepareDatabase({ seed: true, log });
  log(handle.location ? `PostgreSQL (embedded) ready, data in ${handle.location}` : "PostgreSQL ready (already running, or DATABASE_URL)");
  if (seeded?.createdMissions && e.FAULTLINE_DEMO_USERS) await recordDemoLabRun(handle.url, e.dataDir, log);
  await ensureBuild(log);
  const url = `http://${e.HOST === "0.0.0.0" || e.HOST === "127.0.0.1" ? "localhost" : e.HOST}:${e.PORT}`;
  const childEnv = {
    ...process.env,
    DATABASE_URL: handle.url,
    NEXTAUTH_SECRET: sessionSecret(e.dataDir),
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? url,
    FAULTLINE_DATA_DIR: e.dataDir,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // Demo mode: the demo's autonomous agents play recorded model outputs back (labelled; never a live model).
  const recorded = e.FAULTLINE_DEMO_USERS && !e.FAULTLINE_RECORDED_PROVIDER ? await startReplayServer() : null;
  if (recorded) {
    Object.assign(childEnv, { FAULTLINE_RECORDED_PROVIDER: recorded.provider.baseUrl });
    log(`Demo mode: autonomous demo agents use the recorded provider on ${recorded.url} (replays db/seed/recordings/agents.json; not a live model).`);
  }
  let stopping = false;
  const children = new Set<ChildProcess>();
  const launch = (name: "web" | "worker", restarts = 0): void => {
    // The IPC channel lets the child notice when the launcher is gone, even after a SIGKILL (server/launcher-watch.ts).
    const child = spawn(process.execPath, [BIN, name], { cwd: ROOT, stdio: ["inherit", "inherit", "inherit", "ipc"], env: { ...childEnv, FAULTLINE_PROCESS: name } });
    children.add(child);
    const startedAt = Date.now();
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (stopping) return;
      const n = Date.now() - startedAt > 60_000 ? 0 : restarts + 1;
      const delay = Math.min(30_000, 500 * 2 ** Math.min(n, 6));
      log(`${name} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      setTimeout(() => !stopping && launch(name, n), delay);
    });
  };
  launch("web");
  launch("worker");
  log(`Faultline is starting on ${url}`);
  if (seeded?.createdUsers.length) {
    log("Sign in with one of these accounts (created now):");
    for (const u of seeded.createdUsers) log(`  ${u.email.padEnd(28)} ${u.password}   roles: ${u.roles.join(", ")}`);
    if (!e.FAULTLINE_DEMO_USERS) log("  (this password is shown once; keep it)");
  } else if (e.FAULTLINE_DEMO_USERS) {
    log("Demo accounts: <role>@faultline.local with password faultline-<role> (admin, operator, reviewer, contributor, auditor).");
  }
  if (seeded?.libraryVersion) log(`Failure-mode library: the starter library was loaded as version ${seeded.libraryVersion}.`);
  log("Press Ctrl-C to stop.");
  await new Promise<void>((resolve) => {
    const shutdown = async (sig: string) => {
      if (stopping) return;
      stopping = true;
      log(`${sig}: stopping web and worker …`);
      const exits = [...children].map((c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once("exit", r))));
      for (const c of children) c.kill("SIGTERM");
      const killer = setTimeout(() => children.forEach((c) => c.kill("SIGKILL")), 20_000);
      await Promise.all(exits);
      clearTimeout(killer);
      await recorded?.close();
      if (handle.owned) {
        log("stopping PostgreSQL …");
        await handle.stop();
      }
      log("stopped.");
      resolve();
    };
    process.on("SIGINT", () => void shutdown("SIGINT"));
    process.on("SIGTERM", () => void shutdown("SIGTERM"));
    // A closed terminal: stop as for Ctrl-C instead of dying with PostgreSQL left running.
    process.on("SIGHUP", () => void shutdown("SIGHUP"));
    onNpmGone((why) => void shutdown(why));
  });
}
