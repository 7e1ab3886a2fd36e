import createClient from "openapi-fetch";
import type { components, paths } from "./generated/openapi";

/**
 * Faultline's TypeScript client: govern an agent you already run. Every tool call asks Faultline first
 * (a proposal the one authority decides), runs only when approved (with the args the approval binds to),
 * and its result is reported back; a failure is recorded, diagnosed and answered like any other.
 * Typed from the OpenAPI document (`npm run client:types`). Deny on doubt: a call that is not approved
 * (rejected, expired, still pending when the wait ends, or Faultline unreachable) never runs.
 */

type Schemas = components["schemas"];
export type Run = Schemas["Run"];
export type ProposalAnswer = Schemas["ProposalAnswer"];
export type DecisionRecord = Schemas["DecisionRecord"];
export type HITLPrompt = Schemas["HITLPrompt"];
export type ResultAnswer = Schemas["ResultAnswer"];
export type FinishAnswer = Schemas["FinishAnswer"];
export type RunCreateInput = paths["/api/v1/runs"]["post"]["requestBody"]["content"]["application/json"];
/** The strict ToolResult contract: `ok ⇒ data ≠ null ∧ error = null`, `¬ok ⇒ error ≠ null`. */
export type ToolResult = { ok: true; data: unknown; error?: null } | { ok: false; data?: null; error: string | { message: string; code?: string; [k: string]: unknown } };

/** Faultline answered with an error: `status` the HTTP status, `code` and `message` its error body (what, why, what to do). */
export class FaultlineError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "FaultlineError";
  }
}

/**
 * A call Faultline did not approve: it did not run. `decision` says why (FailureReason, reason) and what
 * would change it (counterfactual); null when no decision came in time (the call is denied on doubt).
 */
export class ActionNotApproved extends Error {
  constructor(
    readonly proposal: { id: string; tool: string; status: string },
    readonly decision: DecisionRecord | null,
    message: string,
  ) {
    super(message);
    this.name = "ActionNotApproved";
  }
}

/** What the model (or the person driving the agent) should read when a call did not run. */
export function describeNotApproved(e: ActionNotApproved): string {
  const d = e.decision;
  const cf = d?.counterfactual ? ` What would change it: ${JSON.stringify(d.counterfactual.change)} (expected ${d.counterfactual.expectedOutcome}).` : "";
  return `Faultline did not approve ${e.proposal.tool} (${e.proposal.status}${d?.failureReason ? `, ${d.failureReason}` : ""}): ${d?.reason ?? e.message}.${cf} The call did not run.`;
}

export interface FaultlineOptions {
  /** The console's address, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** An API token (Account → API tokens): `flt_…` */
  token: string;
  fetch?: typeof fetch;
}

export interface GovernOptions {
  /** Which of the run's agents calls (may be left out when the run has one). */
  agent?: string;
  /** How long a pending call waits for a person before it is denied (default 5 minutes). */
  waitMs?: number;
  /** While an approved call runs, tell Faultline the agent is alive this often (default 20 s; 0: never). */
  heartbeatMs?: number;
  signal?: AbortSignal;
}

export type Faultline = ReturnType<typeof createFaultline>;
export type RunHandle = ReturnType<Faultline["run"]>;

export function createFaultline(opts: FaultlineOptions) {
  const api = createClient<paths>({ baseUrl: opts.baseUrl.replace(/\/$/, ""), headers: { authorization: `Bearer ${opts.token}` }, fetch: opts.fetch });

  /** The answer's data, or a FaultlineError carrying Faultline's own message. */
  async function unwrap<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await p;
    if (data !== undefined && response.ok) return data;
    const body = (error ?? {}) as { error?: { code?: string; message?: string; details?: unknown } };
    throw new FaultlineError(response.status, body.error?.code ?? "http_error", body.error?.message ?? `Faultline answered HTTP ${response.status} ${response.statusText}`, body.error?.details);
  }

  const runs = {
    create: async (input: RunCreateInput): Promise<Run> => (await unwrap(api.POST("/api/v1/runs", { body: input }))).run,
    /** With `wait` (seconds, ≤ 60) the answer comes when the run ends, or after `wait` seconds. */
    get: async (id: string, wait = 0): Promise<Run> => (await unwrap(api.GET("/api/v1/runs/{id}", { params: { path: { id }, query: { wait } } }))).run,
    propose: async (id: string, call: { callId: string; tool: string; args?: Record<string, unknown>; agent?: string }): Promise<ProposalAnswer> =>
      (await unwrap(api.POST("/api/v1/runs/{id}/proposals", { params: { path: { id } }, body: call }))).proposal,
    report: async (id: string, input: { callId: string; result: ToolResult; agent?: string }): Promise<ResultAnswer> =>
      (await unwrap(api.POST("/api/v1/runs/{id}/results", { params: { path: { id } }, body: input as never }))).result,
    finish: async (id: string, input: { summary?: string; agent?: string } = {}): Promise<FinishAnswer> => unwrap(api.POST("/api/v1/runs/{id}/finish", { params: { path: { id } }, body: input })),
    heartbeat: async (id: string): Promise<void> => void (await unwrap(api.POST("/api/v1/runs/{id}/heartbeat", { params: { path: { id } } }))),
    /** Waits until the run has ended (its final status derived from evidence by the worker). */
    async ended(id: string, timeoutMs = 120_000): Promise<Run> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const run = await runs.get(id, Math.max(0, Math.min(30, Math.ceil((until - Date.now()) / 1000))));
        if (run.runState === "completed" || run.runState === "failed") return run;
        if (Date.now() >= until) throw new FaultlineError(408, "timeout", `Run ${id} has not ended after ${Math.round(timeoutMs / 1000)} s (it is ${run.runState}).`);
      }
    },
  };

  const proposals = {
    get: async (id: string, wait = 0) => unwrap(api.GET("/api/v1/proposals/{id}", { params: { path: { id }, query: { wait } } })),
    /**
     * Waits (long poll) until a pending proposal is decided, or `waitMs` passes. Returns the decided
     * proposal; one still pending at the end is returned as it is (the caller denies on doubt).
     */
    async decided(id: string, waitMs: number, signal?: AbortSignal) {
      const until = Date.now() + waitMs;
      for (;;) {
        const answer = await proposals.get(id, Math.max(0, Math.min(30, Math.ceil((until - Date.now()) / 1000))));
        if (answer.proposal.status !== "pending" || Date.now() >= until || signal?.aborted) return answer;
      }
    },
  };

  /**
   * Asks before a call and waits for the decision: the args to run when approved (a person may have
   * modified them; the approval binds to these), or ActionNotApproved.
   */
  async function approve(runId: string, call: { callId: string; tool: string; args: Record<string, unknown>; agent?: string }, o: GovernOptions = {}): Promise<{ proposal: ProposalAnswer; args: Record<string, unknown> }> {
    let proposal = await runs.propose(runId, call);
    if (proposal.status === "pending") {
      const answer = await proposals.decided(proposal.id, o.waitMs ?? 300_000, o.signal);
      // The same callId answers the proposal as decided, with the args that were approved.
      proposal = answer.proposal.status === "pending" ? proposal : await runs.propose(runId, call);
      if (proposal.status === "pending") throw new ActionNotApproved(proposal, proposal.decision, `no decision within ${Math.round((o.waitMs ?? 300_000) / 1000)} s: a call nobody approved does not run`);
    }
    if (proposal.status !== "approved") throw new ActionNotApproved(proposal, proposal.decision, proposal.decision?.reason ?? `the proposal is ${proposal.status}`);
    return { proposal, args: proposal.args };
  }

  /** Runs an approved call and reports what happened: its data, or the error it threw (then rethrown). */
  async function execute<R>(runId: string, callId: string, agent: string | undefined, work: () => Promise<R>, o: GovernOptions = {}): Promise<R> {
    const every = o.heartbeatMs ?? 20_000;
    const beat = every > 0 ? setInterval(() => void runs.heartbeat(runId).catch(() => {}), every) : null;
    let value: R;
    try {
      value = await work();
    } catch (e) {
      const message = e instanceof Error ? e.message || e.name : String(e);
      await runs.report(runId, { callId, agent, result: { ok: false, data: null, error: { message: message || "the call failed without a message", ...(e instanceof Error && "code" in e && typeof e.code === "string" ? { code: e.code } : {}) } } });
      throw e;
    } finally {
      if (beat) clearInterval(beat);
    }
    await runs.report(runId, { callId, agent, result: { ok: true, data: value === undefined || value === null ? {} : (value as unknown) } });
    return value;
  }

  /**
   * A run you act in: `governed(name, fn)` wraps a tool so every call is proposed, waited for, run with
   * the approved args and reported (propose → wait → run → report).
   */
  function run(runId: string, defaults: GovernOptions = {}) {
    return {
      id: runId,
      get: (wait = 0) => runs.get(runId, wait),
      propose: (call: { callId: string; tool: string; args?: Record<string, unknown>; agent?: string }) => runs.propose(runId, { agent: defaults.agent, ...call }),
      report: (callId: string, result: ToolResult) => runs.report(runId, { callId, agent: defaults.agent, result }),
      finish: (summary?: string) => runs.finish(runId, { summary, agent: defaults.agent }),
      heartbeat: () => runs.heartbeat(runId),
      ended: (timeoutMs?: number) => runs.ended(runId, timeoutMs),
      /** Asks and waits: the approved args, or ActionNotApproved. */
      approve: (call: { callId: string; tool: string; args: Record<string, unknown> }, o: GovernOptions = {}) => approve(runId, { agent: defaults.agent, ...call }, { ...defaults, ...o }),
      /** Runs an approved call and reports its result (or the error it threw). */
      execute: <R>(callId: string, work: () => Promise<R>, o: GovernOptions = {}) => execute(runId, callId, defaults.agent, work, { ...defaults, ...o }),
      governed<A extends Record<string, unknown>, R>(tool: string, fn: (args: A) => Promise<R> | R, o: GovernOptions = {}) {
        const opt = { ...defaults, ...o };
        return async (args: A, callId: string = crypto.randomUUID()): Promise<R> => {
          const approved = await approve(runId, { callId, tool, args, agent: opt.agent }, opt);
          return execute(runId, callId, opt.agent, async () => fn(approved.args as A), opt);
        };
      },
    };
  }

  return { api, runs, proposals, run, approve, execute };
}
