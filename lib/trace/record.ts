import type { EngineIO } from "../mission/engine";
import type { MissionState } from "../mission/types";
import type { Read, Tape, TapeConfig } from "./format";

type Append = EngineIO["append"];
type Events = Parameters<Append>[0];

/**
 * The flight recorder of the worker's engine (FDR-N004): wraps an EngineIO and notes every reading the
 * engine takes through it (clock, ids, ToolResults, model turns, the admin's policy, the library's
 * answer…), and hands them with each write to `append(events, tape)`, which stores them beside the events
 * in the same transaction. `begin(seq)` before each engine transition; writes outside one (the runner's
 * own, such as a silence pause) carry no tape: replay takes them as recorded input. It only observes:
 * every value it records is the value the engine gets.
 */
export function recordingIO(inner: EngineIO, opts: { config: TapeConfig; append(events: Events, tape: Tape | null): Promise<MissionState> }): { io: EngineIO; begin(seq: number): void; end(): void } {
  let active = false;
  let from = 0;
  let turn = 0;
  let reads: Read[] = [];
  let configPending = true;
  const note = <T>(r: Read, v: T): T => {
    if (active) reads.push(r);
    return v;
  };
  const io: EngineIO = {
    ...inner,
    now: () => {
      const v = inner.now();
      return note({ k: "now", v }, v);
    },
    newId: () => {
      const v = inner.newId();
      return note({ k: "id", v }, v);
    },
    append: async (events) => {
      if (!active) return opts.append(events, null);
      const tape: Tape = { from, turn, ...(configPending ? { config: opts.config } : {}), reads };
      const state = await opts.append(events, tape);
      configPending = false;
      turn++;
      reads = [];
      return state;
    },
    run: async (call, ctx) => {
      const out = await inner.run(call, ctx);
      return note({ k: "run", key: ctx.idempotencyKey, call: { tool: call.tool, args: call.args }, result: out.result as unknown as Record<string, unknown>, evidence: out.evidence as unknown as Array<Record<string, unknown>> }, out);
    },
  };
  if (inner.think) io.think = async (state, agent, o) => {
    const v = await inner.think!(state, agent, o);
    return note({ k: "think", agent, v: v as unknown as Record<string, unknown> }, v);
  };
  if (inner.reflect) io.reflect = async (input, d) => {
    const v = await inner.reflect!(input, d);
    return note({ k: "reflect", v: v as unknown as Record<string, unknown> | null }, v);
  };
  if (inner.findPatterns) io.findPatterns = async (when) => {
    const v = await inner.findPatterns!(when);
    return note({ k: "patterns", when, v }, v);
  };
  if (inner.library) io.library = async (query, limit) => {
    const v = await inner.library!(query, limit);
    return note({ k: "library", v: v as unknown as Record<string, unknown> }, v);
  };
  if (inner.checkEvidence) io.checkEvidence = async (state, agent, checks) => {
    const v = await inner.checkEvidence!(state, agent, checks);
    return note({ k: "evidence", v }, v);
  };
  if (inner.externalResults) io.externalResults = async (state, agent) => {
    const v = await inner.externalResults!(state, agent);
    return note({ k: "external", v }, v);
  };
  if (inner.workspaceState) io.workspaceState = async (state) => {
    const v = await inner.workspaceState!(state);
    return note({ k: "workspaceState", v }, v);
  };
  if (inner.allowedBinaries) io.allowedBinaries = (state) => {
    const v = inner.allowedBinaries!(state);
    return note({ k: "binaries", v: [...v] }, v);
  };
  if (inner.authority) {
    const a = inner.authority;
    io.authority = {
      approvalTtlMs: a.approvalTtlMs,
      defaultPolicy: async () => {
        const v = await a.defaultPolicy();
        return note({ k: "policy", v }, v);
      },
      ...(a.workspace
        ? {
            workspace: (state: MissionState) => {
              const v = a.workspace!(state);
              return note({ k: "workspace", v }, v);
            },
          }
        : {}),
    };
  }
  return {
    io,
    begin(seq) {
      active = true;
      from = seq;
      turn = 0;
      reads = [];
    },
    end() {
      active = false;
      reads = [];
    },
  };
}

/** The optional capabilities of an EngineIO, by name (recorded so that replay offers the same ones). */
export function capabilitiesOf(io: EngineIO): string[] {
  const names = ["diagnosis", "workspaceState", "allowedBinaries", "findPatterns", "library", "reflect", "think", "authority", "authority.workspace", "checkEvidence", "externalResults", "ensureActor"] as const;
  return names.filter((n) => (n === "authority.workspace" ? Boolean(io.authority?.workspace) : Boolean(io[n as keyof EngineIO])));
}
