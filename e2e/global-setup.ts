import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createDb, withConnection, withDatabaseName } from "../db/client";
import { ensureDatabase } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { seedDatabase } from "../db/seed";
import { freeLoopbackPort } from "../lib/net";
import { ensureBuild, ROOT } from "../server/build";
import { startReplayServer } from "../server/model-replay";
import { replayEveryMission } from "../server/replay-missions";

/** The environment of an e2e web or worker process on 127.0.0.1:`port`. */
export function serverEnv(opts: { databaseUrl: string; port: number; dataDir: string }): NodeJS.ProcessEnv {
  const baseURL = `http://127.0.0.1:${opts.port}`;
  return {
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    NEXTAUTH_SECRET: randomBytes(24).toString("hex"),
    NEXTAUTH_URL: baseURL,
    PORT: String(opts.port),
    HOST: "127.0.0.1",
    FAULTLINE_DATA_DIR: opts.dataDir,
    FAULTLINE_DEMO_USERS: "1",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

export interface WebProcess {
  url: string;
  child: ChildProcess;
  output: string[];
}

/**
 * A `faultline web` process on a free loopback port with `env` (its output kept), once it answers. `nodeArgs`: flags
 * for its node (`--cpu-prof`, which node refuses in NODE_OPTIONS).
 */
export async function startWebProcess(env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []): Promise<WebProcess> {
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, "bin", "faultline.mjs"), "web"], { cwd: ROOT, env: { ...env, PORT: String(port), NEXTAUTH_URL: url, FAULTLINE_PROCESS: "web" }, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  child.stdout!.on("data", (d) => output.push(String(d)));
  child.stderr!.on("data", (d) => output.push(String(d)));
  await waitForHttp(`${url}/login`, child, 120_000);
  return { url, child, output };
}

/** SIGTERM, then SIGKILL after 10 s. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  child.kill("SIGKILL");
}

/** Refuses anything but a database on this machine: e2e tests create and drop databases. */
function assertLocalDatabase(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) throw new Error(`E2E refuses to run against a non-local database (${host}). Unset DATABASE_URL or point it at 127.0.0.1.`);
}


export async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`web exited with ${child.exitCode} before answering ${url}`);
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`web did not answer ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A new database on `serverUrl`'s server: created, migrated, seeded with one user per role; `drop` removes it. */
export async function freshDatabase(serverUrl: string, prefix = "faultline_e2e"): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  assertLocalDatabase(serverUrl);
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(2).toString("hex")}`;
  const admin = withDatabaseName(serverUrl, "postgres");
  await withConnection(admin, (sql) => sql.unsafe(`create database ${name}`));
  const url = withDatabaseName(serverUrl, name);
  await runMigrations(url);
  const h = createDb(url, { max: 2 });
  await seedDatabase(h.db, { demoUsers: true, missions: false });
  await h.close();
  return { url, name, drop: () => withConnection(admin, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)).then(() => undefined) };
}

/**
 * A fresh database for the run (created, migrated, seeded with one user per role), the console built
 * if needed, then web and worker as real processes on a free port.
 */
export default async function globalSetup() {
  const dataDir = path.join(ROOT, ".data-e2e");
  const server = await ensureDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL });
  const run = await freshDatabase(server.url);
  const { name } = run;
  const dbUrl = new URL(run.url);

  await ensureBuild((m) => console.log(`[e2e] ${m}`));

  const port = await freeLoopbackPort();
  const baseURL = `http://127.0.0.1:${port}`;
  // Autonomous agents' models in e2e: the recorded provider (db/seed/recordings/agents.json), as in demo mode.
  const recorded = await startReplayServer();
  const env = { ...serverEnv({ databaseUrl: dbUrl.toString(), port, dataDir }), FAULTLINE_POLL_MS: "500", FAULTLINE_RECORDED_PROVIDER: recorded.provider.baseUrl, FAULTLINE_WEBHOOK_RETRY_MS: "200" };
  const bin = path.join(ROOT, "bin", "faultline.mjs");
  // One log per run (kept), so a failure can be read after the fact.
  const logPath = path.join(dataDir, `e2e-server-${new Date().toISOString().replace(/[:.]/g, "-")}.log`);
  const logFile = fs.openSync(logPath, "w");
  console.log(`[e2e] web and worker log: ${logPath}`);
  const web = spawn(process.execPath, [bin, "web"], { cwd: ROOT, env: { ...env, FAULTLINE_PROCESS: "web" }, stdio: ["ignore", logFile, logFile] });
  const worker = spawn(process.execPath, [bin, "worker"], { cwd: ROOT, env: { ...env, FAULTLINE_PROCESS: "worker" }, stdio: ["ignore", logFile, logFile] });
  await waitForHttp(`${baseURL}/login`, web, 120_000);

  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_DATABASE_URL = dbUrl.toString();
  // The recorded model provider, for a spec's CLI that asks it (mission explain --verify --live).
  process.env.E2E_RECORDED_PROVIDER = recorded.provider.baseUrl;

  return async () => {
    const exits = [web, worker].map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once("exit", r))));
    web.kill("SIGTERM");
    worker.kill("SIGTERM");
    await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 15_000))]);
    web.kill("SIGKILL");
    worker.kill("SIGKILL");
    await recorded.close();
    // Issue 17: every mission the run made replays through the real engine with zero divergences.
    const problems = await replayedAll(run.url);
    // E2E_KEEP_DB=1 keeps the run's database for inspection after a failure.
    if (process.env.E2E_KEEP_DB !== "1") await run.drop().catch(() => {});
    else console.log(`[e2e] kept database ${name}`);
    await server.stop();
    if (problems) throw new Error(problems);
  };
}

/** Replays every mission of the run's database; a message naming each one that did not replay (null: all did). */
async function replayedAll(url: string): Promise<string | null> {
  const h = createDb(url, { max: 2, applicationName: "faultline-e2e-replay" });
  try {
    const r = await replayEveryMission(h.db);
    console.log(`[e2e] replayed every mission of the run: ${r.missions} mission(s), ${r.events} event(s), ${r.problems.length} with divergences`);
    if (!r.problems.length) return null;
    const lines = r.problems.map((p) => `  ${p.name} (${p.missionId}): ${p.why}${p.firstDivergence ? `; first at seq ${p.firstDivergence.seq} (${p.firstDivergence.type}): ${p.firstDivergence.why}` : ""}`);
    return `${r.problems.length} mission(s) of the e2e run do not replay as recorded (faultline lab replay on their traces says the same):\n${lines.join("\n")}`;
  } finally {
    await h.close();
  }
}
