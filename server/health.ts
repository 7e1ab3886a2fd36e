import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { getDb, type Executor } from "../db/client";
import { countWorkers, pingDatabase, type WorkerCounts } from "../db/queries/health";
import { TimeLimitExceeded, withTimeout } from "../lib/deadline";
import { probeProvider, type ProviderHealth } from "../lib/llm/client";
import { env } from "../lib/env";
import type { Provider } from "../lib/llm/providers";

/**
 * Infrastructure health (FAILURE_MODEL "Health Checks", issue 3 "Infrastructure"): the database,
 * object storage, every configured LLM provider, the websocket relay and worker heartbeats, in the
 * document's `HealthStatus` shape, checked every FAULTLINE_HEALTH_INTERVAL_MS (default 10 s).
 * Degraded → a warning in the console; unavailable → a clear error banner, and the mission runner
 * pauses running missions (see `pauseReasons`).
 */

export type ComponentStatus = "healthy" | "degraded" | "unavailable";
export type { ProviderHealth };

/** FAILURE_MODEL's HealthStatus, exactly. */
export interface HealthStatus {
  database: ComponentStatus;
  objectStorage: ComponentStatus;
  llmProviders: Record<string, ProviderHealth>;
  websocket: ComponentStatus;
}

/** What /api/health returns to a signed-in user: HealthStatus plus workers, the overall verdict and the reasons. */
export interface HealthReport extends HealthStatus {
  /** Live and stale workers from heartbeats; null when the database could not be read. */
  workers: WorkerCounts | null;
  /** The worst component: database, objectStorage, websocket, the LLM providers taken together, workers. */
  overall: ComponentStatus;
  /** One sentence per component that is not healthy, naming it and saying why. Empty when all is well. */
  problems: string[];
  checkedAt: string;
  durationMs: number;
  /**
   * Whether this check found the database ping or the storage probe slow (over 500 ms, or no answer within
   * the check's time limit). One slow reading on a busy machine is not a problem: a component is reported
   * degraded for slowness, or unavailable for no answer, only when the check before was slow too (the
   * monitor passes this on as `slowBefore`).
   */
  slow: SlowReadings;
}

export interface SlowReadings {
  database: boolean;
  objectStorage: boolean;
}

export const DB_SLOW_MS = 500;
export const STORAGE_SLOW_MS = 500;
export const STORAGE_LOW_FREE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_CHECK_TIMEOUT_MS = 3_000;

// ---------- the websocket relay's state (set by server/realtime.ts in the web process) ----------

export interface RealtimeHealth {
  status: ComponentStatus;
  detail: string | null;
  since: string;
}

// globalThis, not a module variable: the custom server (tsx) and Next.js's bundled route handlers
// load separate copies of this module in the same process.
const REALTIME_KEY = Symbol.for("faultline.realtimeHealth");
type WithRealtime = typeof globalThis & { [REALTIME_KEY]?: RealtimeHealth };

/** Called by the realtime relay: healthy when LISTEN is connected, degraded while reconnecting, unavailable once closed. */
export function setRealtimeHealth(status: ComponentStatus, detail: string | null = null): void {
  const g = globalThis as WithRealtime;
  const prev = g[REALTIME_KEY];
  g[REALTIME_KEY] = { status, detail, since: prev && prev.status === status ? prev.since : new Date().toISOString() };
}

/** The relay's last reported state in this process; null when no relay was started here. */
export function getRealtimeHealth(): RealtimeHealth | null {
  return (globalThis as WithRealtime)[REALTIME_KEY] ?? null;
}

// ---------- checks ----------

export interface HealthDeps {
  db: Executor;
  /**
   * Faultline's object storage is the mission workspaces directory (FAULTLINE_DATA_DIR/workspaces):
   * tools write their artifacts there. The check creates it if needed, then writes, reads back and
   * deletes a small probe file, and looks at the free space.
   */
  workspacesDir: string;
  providers: readonly Provider[];
  /**
   * The relay's state; default: what this process's relay reported (`getRealtimeHealth`). `false` in a process that serves
   * no live updates (a worker): the relay is the web process's component, so it is not part of this process's verdict
   * (reported healthy, never a problem) — else every worker would log "Live updates unavailable" for ever.
   */
  websocket?: (() => RealtimeHealth | null) | false;
  /** Time limit for each check; default 3 s. */
  timeoutMs?: number;
  /** A worker whose heartbeat is older than this is stale; default 15 s (the default lease). */
  staleWorkerMs?: number;
  now?: () => number;
  /**
   * What the previous check found slow (`HealthReport.slow`): a slow reading is degraded only the second time in a row, and a
   * check with no answer within `timeoutMs` is unavailable only the second time in a row (the first is a slow reading). An
   * error (refused, no space, no permission) is unavailable at once. Default: nothing was.
   */
  slowBefore?: SlowReadings;
}


/** The most specific message along an error's cause chain (drizzle wraps pg errors; pg reports a refused connection as an AggregateError). */
function reason(err: unknown): string {
  if (err instanceof TimeLimitExceeded) return err.message;
  let current: unknown = err;
  for (let i = 0; i < 8; i++) {
    const e = current as { cause?: unknown; errors?: unknown[] } | null;
    if (e && typeof e === "object" && e.cause instanceof Error) current = e.cause;
    else if (e && Array.isArray(e.errors) && e.errors.length) current = e.errors[0];
    else break;
  }
  const e = current as { message?: string; code?: string } | null;
  const msg = e?.message || String(current);
  const code = typeof e?.code === "string" ? e.code : undefined;
  return code && !msg.includes(code) ? `${msg} (${code})` : msg;
}

/** Ends a text with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

type Checked<T> = { status: T; problem: string | null };
/** A check that can find its component slow: `slow` is this reading; the status says degraded for it only when `slowBefore` (the previous reading was slow too). */
type Timed = Checked<ComponentStatus> & { slow: boolean };

/** A slow reading's verdict: degraded with `problem` the second time in a row, else healthy (the reading is still reported as slow). */
function slowVerdict(slowBefore: boolean, problem: string): Timed {
  return slowBefore ? { status: "degraded", problem, slow: true } : { status: "healthy", problem: null, slow: true };
}

export async function checkDatabase(db: Executor, timeoutMs = DEFAULT_CHECK_TIMEOUT_MS, slowBefore = false): Promise<Timed & { latencyMs: number }> {
  const started = performance.now();
  try {
    await withTimeout(pingDatabase(db), timeoutMs, "The database");
  } catch (err) {
    const latencyMs = Math.round(performance.now() - started);
    // No answer in time is the slowest reading, not yet an outage: unavailable (which pauses missions) the second time in a row.
    if (err instanceof TimeLimitExceeded && !slowBefore) return { status: "healthy", problem: null, latencyMs, slow: true };
    return { status: "unavailable", problem: `Database unavailable: ${sentence(reason(err))}${err instanceof TimeLimitExceeded ? " The check before was slow too." : ""}`, latencyMs, slow: err instanceof TimeLimitExceeded };
  }
  const latencyMs = Math.round(performance.now() - started);
  if (latencyMs > DB_SLOW_MS) return { ...slowVerdict(slowBefore, `Database slow: a ping took ${latencyMs} ms (over ${DB_SLOW_MS} ms), and the check before was slow too.`), latencyMs };
  return { status: "healthy", problem: null, latencyMs, slow: false };
}

export async function checkObjectStorage(dir: string, timeoutMs = DEFAULT_CHECK_TIMEOUT_MS, slowBefore = false): Promise<Timed> {
  const started = performance.now();
  const probe = path.join(dir, `.health-${process.pid}-${randomBytes(4).toString("hex")}`);
  const payload = randomBytes(16).toString("hex");
  let free: number | null = null;
  try {
    await withTimeout(
      (async () => {
        await fs.mkdir(dir, { recursive: true });
        await fs.writeFile(probe, payload, { flag: "wx" });
        const back = await fs.readFile(probe, "utf8");
        if (back !== payload) throw new Error("a probe file read back different content");
        const s = await fs.statfs(dir).catch(() => null);
        free = s ? s.bavail * s.bsize : null;
      })(),
      timeoutMs,
      `The workspaces directory ${dir}`,
    );
  } catch (err) {
    if (err instanceof TimeLimitExceeded && !slowBefore) return { status: "healthy", problem: null, slow: true };
    return {
      status: "unavailable",
      problem: `Object storage unavailable: cannot write to the workspaces directory ${dir}: ${sentence(reason(err))}${err instanceof TimeLimitExceeded ? " The check before was slow too." : ""}`,
      slow: err instanceof TimeLimitExceeded,
    };
  } finally {
    await fs.rm(probe, { force: true }).catch(() => {});
  }
  const ms = Math.round(performance.now() - started);
  const slow = ms > STORAGE_SLOW_MS;
  if (free !== null && free < STORAGE_LOW_FREE_BYTES) {
    return { status: "degraded", problem: `Object storage low on space: ${Math.round(free / 1024 / 1024)} MiB free in ${dir}.`, slow };
  }
  if (slow) return slowVerdict(slowBefore, `Object storage slow: writing a probe file in ${dir} took ${ms} ms (over ${STORAGE_SLOW_MS} ms), and the check before was slow too.`);
  return { status: "healthy", problem: null, slow: false };
}

export async function checkProviders(providers: readonly Provider[], timeoutMs = DEFAULT_CHECK_TIMEOUT_MS, now: () => number = Date.now) {
  const results = await Promise.all(providers.map(async (p) => [p.name, await probeProvider(p, { timeoutMs: Math.min(timeoutMs, p.timeoutMs), now })] as const));
  const llmProviders: Record<string, ProviderHealth> = {};
  const problems: string[] = [];
  for (const [name, r] of results) {
    llmProviders[name] = r.health;
    if (r.health.status === "rate_limited") problems.push(`LLM provider "${name}" rate limited${r.health.resetAt ? ` until ${r.health.resetAt}` : ""}.`);
    else if (r.health.status === "unavailable") problems.push(`LLM provider "${name}" unavailable: ${sentence(r.problem ?? "no answer")}`);
  }
  return { llmProviders, problems };
}

/** The LLM providers taken together: unavailable when every configured one is; degraded when any is not healthy. None configured: healthy (LLM is optional). */
export function llmAggregate(llmProviders: Record<string, ProviderHealth>): ComponentStatus {
  const all = Object.values(llmProviders);
  if (all.length === 0 || all.every((p) => p.status === "healthy")) return "healthy";
  return all.every((p) => p.status === "unavailable") ? "unavailable" : "degraded";
}

export function checkWebsocket(state: RealtimeHealth | null): Checked<ComponentStatus> {
  if (!state) return { status: "unavailable", problem: "Live updates unavailable: the websocket relay is not running in the web process." };
  if (state.status === "healthy") return { status: "healthy", problem: null };
  const what = state.status === "degraded" ? "Live updates degraded" : "Live updates unavailable";
  return { status: state.status, problem: sentence(`${what} since ${state.since}${state.detail ? `: ${state.detail}` : ""}`) };
}

const RANK: Record<ComponentStatus, number> = { healthy: 0, degraded: 1, unavailable: 2 };
export function worst(...statuses: ComponentStatus[]): ComponentStatus {
  return statuses.reduce<ComponentStatus>((a, b) => (RANK[b] > RANK[a] ? b : a), "healthy");
}

/** One health check of everything; never throws, every check has a time limit and they run in parallel. */
export async function checkHealth(deps: HealthDeps): Promise<HealthReport> {
  const started = performance.now();
  const timeoutMs = deps.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const now = deps.now ?? Date.now;
  const [database, storage, llm, workerCounts] = await Promise.all([
    checkDatabase(deps.db, timeoutMs, deps.slowBefore?.database),
    checkObjectStorage(deps.workspacesDir, timeoutMs, deps.slowBefore?.objectStorage),
    checkProviders(deps.providers, timeoutMs, now),
    withTimeout(countWorkers(deps.db, { staleAfterMs: deps.staleWorkerMs ?? 15_000 }), timeoutMs, "The workers query").catch(() => null),
  ]);
  const websocket: Checked<ComponentStatus> = deps.websocket === false ? { status: "healthy", problem: null } : checkWebsocket((deps.websocket ?? getRealtimeHealth)());

  const problems: string[] = [];
  for (const c of [database, storage, websocket]) if (c.problem) problems.push(c.problem);
  problems.push(...llm.problems);
  const llmStatus = llmAggregate(llm.llmProviders);
  if (llmStatus === "unavailable") problems.push(`All ${Object.keys(llm.llmProviders).length} LLM providers are unavailable: missions that call the llm tool will pause.`);
  let workersStatus: ComponentStatus = "healthy";
  if (workerCounts && workerCounts.active === 0) {
    workersStatus = "degraded";
    problems.push(`No live worker: missions will not progress until one runs${workerCounts.stale ? ` (${workerCounts.stale} stale, last heartbeat over ${Math.round((deps.staleWorkerMs ?? 15_000) / 1000)} s ago)` : ""}.`);
  }

  return {
    database: database.status,
    objectStorage: storage.status,
    llmProviders: llm.llmProviders,
    websocket: websocket.status,
    workers: workerCounts,
    overall: worst(database.status, storage.status, websocket.status, llmStatus, workersStatus),
    problems,
    checkedAt: new Date(now()).toISOString(),
    durationMs: Math.round(performance.now() - started),
    slow: { database: database.slow, objectStorage: storage.slow },
  };
}

/**
 * Why running missions must pause now (FAILURE_MODEL level 3): the database, object storage, or
 * every configured LLM provider is unavailable. Empty when missions may run. The websocket relay is
 * not here: an operator losing the live view is handled by the client-disconnect rule.
 */
export function pauseReasons(report: HealthReport): string[] {
  const out: string[] = [];
  if (report.database === "unavailable") out.push("the database is unavailable");
  if (report.objectStorage === "unavailable") out.push("object storage (the workspaces directory) is unavailable");
  if (llmAggregate(report.llmProviders) === "unavailable") out.push("every LLM provider is unavailable");
  return out;
}

// ---------- the periodic runner ----------

export interface HealthMonitor {
  /** The last report, or null before the first check finished. */
  latest(): HealthReport | null;
  /** The last report if younger than one interval and a half, else a fresh check (concurrent callers share it). */
  current(): Promise<HealthReport>;
  /** Checks now (shared with a check already under way). */
  refresh(): Promise<HealthReport>;
  stop(): void;
}

export interface HealthMonitorOptions {
  intervalMs: number;
  /** One check; `slowBefore` is what the previous report found slow (pass it to `checkHealth`). */
  check: (slowBefore: SlowReadings | undefined) => Promise<HealthReport>;
  /** Every report, with the previous one (null the first time). */
  onReport?: (report: HealthReport, previous: HealthReport | null) => void;
  log?: (msg: string) => void;
}

/** Runs `check` now and then every `intervalMs` (never overlapping; the timer does not keep the process alive). Logs changes of the overall verdict. */
export function startHealthMonitor(opts: HealthMonitorOptions): HealthMonitor {
  const log = opts.log ?? ((m: string) => console.log(`[health] ${m}`));
  let last: HealthReport | null = null;
  let inflight: Promise<HealthReport> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const refresh = (): Promise<HealthReport> =>
    (inflight ??= (async () => {
      try {
        const report = await opts.check(last?.slow);
        const previous = last;
        last = report;
        if (!previous || previous.overall !== report.overall) {
          log(`${report.overall}${report.problems.length ? `: ${report.problems.join(" ")}` : ""}`);
        }
        try {
          opts.onReport?.(report, previous);
        } catch (e) {
          log(`onReport failed: ${reason(e)}`);
        }
        return report;
      } finally {
        inflight = null;
      }
    })());

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void refresh()
        .catch((e) => log(`health check failed: ${reason(e)}`))
        .finally(schedule);
    }, opts.intervalMs);
    timer.unref();
  };
  void refresh()
    .catch((e) => log(`health check failed: ${reason(e)}`))
    .finally(schedule);

  return {
    latest: () => last,
    current: () => (last && Date.now() - Date.parse(last.checkedAt) < opts.intervalMs * 1.5 ? Promise.resolve(last) : refresh()),
    refresh,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

// ---------- this process's monitor (web: /api/health) ----------

const MONITOR_KEY = Symbol.for("faultline.healthMonitor");
type WithMonitor = typeof globalThis & { [MONITOR_KEY]?: HealthMonitor };

/** A database stand-in whose every query fails with `err`: DATABASE_URL missing is "database unavailable", not a crash. */
function unreachableDb(err: unknown): Executor {
  return { execute: () => Promise.reject(err) } as unknown as Executor;
}

/** Health deps from the environment: DATABASE_URL's pool, FAULTLINE_DATA_DIR/workspaces, FAULTLINE_LLM_PROVIDERS, the lease as the stale-worker age. */
export function healthDepsFromEnv(): HealthDeps {
  const e = env();
  let db: Executor;
  try {
    db = getDb();
  } catch (err) {
    db = unreachableDb(err);
  }
  return { db, workspacesDir: path.join(e.dataDir, "workspaces"), providers: e.FAULTLINE_LLM_PROVIDERS, staleWorkerMs: e.FAULTLINE_LEASE_MS };
}

/**
 * The process-wide monitor, started on first use (every FAULTLINE_HEALTH_INTERVAL_MS) and shared by
 * every bundle in the process. The web process starts it from GET /api/health; a worker may call it
 * and pass `onReport` logic of its own via `startHealthMonitor` instead.
 */
export function processHealthMonitor(): HealthMonitor {
  const g = globalThis as WithMonitor;
  return (g[MONITOR_KEY] ??= startHealthMonitor({ intervalMs: env().FAULTLINE_HEALTH_INTERVAL_MS, check: (slowBefore) => checkHealth({ ...healthDepsFromEnv(), slowBefore }) }));
}
