import { once } from "node:events";
import { onLauncherGone } from "./launcher-watch";
import { agentProviders } from "./orchestrator/agent-providers";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { and, eq, gt, sql } from "drizzle-orm";
import { createDb, type DbHandle } from "../db/client";
import { wakeOnNotify } from "../db/listen";
import { createMission, EVENTS_CHANNEL, listEventsAfter } from "../db/queries/events";
import { decideGate, listOpenGates } from "../db/queries/gates";
import { abortMission, pauseMission, resumeMission } from "../db/queries/mission-control";
import { getMissionById, listMissions } from "../db/queries/missions";
import { ensureActor } from "../db/queries/users";
import { workers } from "../db/schema";
import type { AuditActor } from "../lib/audit";
import { isAppError } from "../lib/errors";
import { EnvError, env } from "../lib/env";
import { explainFinalStatus, GATE_DECISIONS, parseMissionDefinition, type GateDecision, type MissionState } from "../lib/mission";
import { prepareDatabase, runLauncher } from "./start";
import { deletePattern, getPattern, listPatterns, MEMORY_KINDS, memoryRecords, recordMemoryExport, updatePattern, type MemoryKind } from "../db/queries/learning";
import { DiagnosisConfigError, loadDiagnosisConfig } from "../lib/diagnosis/config";
import { loadStarterLibrary } from "../db/queries/library";
import { starterLibrary, SYSTEM_ACTOR } from "../db/seed";
import { detail, explainMission, explainText, oneLine, parseAnswer, proposalDecide, proposalShow, proposalsList, ProposalsUsageError } from "./proposals-command";
import { missionLevel } from "../lib/mission/definition";
import { CLAUDE_INSTALL_NOTE, claudeSettingsSnippet } from "./claude-hooks-snippet";
import { parse as parseShell } from "shell-quote";
import type { HttpListener, Upstream } from "./mcp-gateway";
import { labReplay, missionExplainVerify, missionIdArg, traceExport, traceVerify, TraceUsageError } from "./trace-command";
import { LibraryUsageError, libraryExport, libraryImport, libraryQuery, libraryQueryBatch, parseFormat, parseLimit, readInput } from "./library-command";
import { isUuid } from "../lib/ids";
import { missionWatch, WatchUsageError } from "./watch-command";
import { isProjectionMode, unknownModeMessage } from "../lib/lab/projection";

const USAGE = `faultline — control plane for agent missions that fail

Usage:
  faultline start                         web + worker + embedded PostgreSQL (same as npm start)
  faultline worker                        one orchestrator worker
  faultline migrate                       apply database migrations
  faultline seed                          seed an empty database (users, demo missions)
  faultline mission run FILE|- [--wait] [--json]
                                          start a mission from a YAML/JSON definition
  faultline mission list [--json]
  faultline mission show ID [--json]      state, derived final status, open gates, proposals, events
  faultline mission explain ID [--json]   { finalStatus, failureReason, explanation } of a mission
  faultline mission explain ID --verify [--live] [--json]
                                          replay each counterfactual of the mission's record from its
                                          trace: holds / does not hold / undetermined, with the evidence
                                          (stored for the mission page; exit 1 when one does not hold)
  faultline mission watch ID [--mode silent|watch|interactive|debug]
                                          follow a mission live until it ends (exit: its final status, as
                                          run --wait); keys s w i d switch the mode, q stops watching; in
                                          interactive and debug an open gate is answered from the terminal
                                          (its option's number; piped input: number or name, then a note); debug adds the state's
                                          changes at each seq and the model's responses (docs/lab.md)
  faultline mission validate FILE|- [--json]
                                          check a definition: field errors, necessity level, warnings
  faultline mission pause ID [--note TEXT]   pause at the next step boundary
  faultline mission resume ID [--note TEXT]  resume a paused mission
  faultline mission abort ID [--note TEXT]   abort the mission: it ends FAILED after its compensations
  faultline gate list [--json]            open gates, oldest first
  faultline proposals list [--mission ID] [--json]
                                          pending proposals (or every proposal of a mission)
  faultline proposals show PROPOSAL_ID [--json]
                                          the proposal, its decision record, its HITL prompt
  faultline proposals approve PROPOSAL_ID [--note TEXT]
  faultline proposals reject PROPOSAL_ID --note TEXT
  faultline proposals modify PROPOSAL_ID --args JSON [--scope GLOB,GLOB] [--note TEXT]
                                          approve with the args that will run instead
  faultline diagnose [FILE|-]             "5 whys" diagnosis of failure contexts (JSON or JSON Lines)
  faultline gate decide GATE_ID DECISION [--note TEXT]
                                          retry | skip | abort, or what the gate offers
                                          (retry_phase, skip_phase, resume, restart_phase, approve, recover)
  faultline patterns list [--json]        learned recovery patterns: when → then, record, threshold
  faultline patterns enable|disable|delete PATTERN_ID
  faultline memory export session|episodic [--mission ID] [--out FILE]
                                          ADR-0003 memory as JSON Lines (stdout, or FILE)
  faultline library import FILE|- [--replace] [--dry-run] [--json]
                                          import a library file (JSON or YAML, the document's schema)
                                          as one new version; --replace: the file becomes the whole
                                          published library (the rest is deprecated); --dry-run: preview
  faultline library export [--format json|yaml] [--out FILE] [--deprecated]
                                          the published library (default YAML, stdout)
  faultline library query [--json] '<query JSON>' [--limit N]
  faultline trace export ID [-o FILE]    the mission's trace (JSON Lines, sha-256 chained, secrets redacted;
                                          stdout by default; docs/traces.md)
  faultline trace verify FILE            "ok, N lines", or the first changed / missing line and why (exit 1)
  faultline lab replay FILE [--json]     replay the trace through the real engine: { events, divergences,
                                          firstDivergence } (exit 1 when it diverges)
  faultline lab replay FILE [--rules FILE] [--set PATH=VALUE]... [--flag NAME=VALUE]... [--live] [--json]
                                          counterfactual replay: the run with the change — where it parts
                                          from the original, how it ends, where it stopped for a model
                                          output or ToolResult the trace does not hold (--live: ask the
                                          configured provider); exit 1 when it stopped
  faultline lab run SUITE.yaml [--seed N] [--repeat K] [--compare BASELINE.json] [--json] [-o REPORT.json]
                                          [--traces DIR] [--no-record]
                                          run a lab suite headless (docs/lab.md): seed 003's and seed 002's
                                          metrics with 95% intervals, pass^k per scenario, one trace per run;
                                          --compare exits 1 on a regression (default suite: lab/default.yaml);
                                          recorded in the database for the console's Lab page (and
                                          simulation extraction) unless --no-record
  faultline hooks install claude         print the .claude/settings.json hooks that ask Faultline before every call
                                          ranked hypotheses { failure_id, match_score, hypothesis }
  faultline library query --batch FILE|- [--limit N]
                                          JSON Lines in, one ranked list per line out, in order
  faultline mcp --upstream "COMMAND ARGS" | --upstream-url URL [--run ID | --name NAME] [--listen PORT]
                                          MCP gateway: the upstream's tools, every call a proposal on a run

Exit codes of 'mission run --wait': 0 SUCCESS, 1 FAILED, 3 PARTIAL_SUCCESS, 4 waiting at a gate;
2 for invalid input; 1 for an ID that does not exist. Environment: DATABASE_URL, FAULTLINE_DATA_DIR (see docs/configuration.md).`;

class UsageError extends Error {}

const EXIT = { SUCCESS: 0, FAILED: 1, USAGE: 2, PARTIAL_SUCCESS: 3, GATE: 4 } as const;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: "boolean", default: false },
      wait: { type: "boolean", default: false },
      note: { type: "string" },
      mission: { type: "string" },
      out: { type: "string", short: "o" },
      format: { type: "string" },
      replace: { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
      deprecated: { type: "boolean", default: false },
      batch: { type: "string" },
      limit: { type: "string" },
      args: { type: "string" },
      scope: { type: "string" },
      upstream: { type: "string" },
      "upstream-url": { type: "string" },
      run: { type: "string" },
      name: { type: "string" },
      listen: { type: "string" },
      seed: { type: "string" },
      repeat: { type: "string" },
      compare: { type: "string" },
      traces: { type: "string" },
      "no-record": { type: "boolean", default: false },
      rules: { type: "string" },
      set: { type: "string", multiple: true },
      flag: { type: "string", multiple: true },
      live: { type: "boolean", default: false },
      verify: { type: "boolean", default: false },
      mode: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [cmd, sub, ...rest] = positionals;
  if (values.help || !cmd) {
    console.log(USAGE);
    return cmd || values.help ? 0 : EXIT.USAGE;
  }
  switch (cmd) {
    case "start":
      await runLauncher();
      return 0;
    case "web": {
      const { startWeb } = await import("./web");
      const web = await startWeb();
      console.log(`[web] listening on ${web.url}`);
      await new Promise<void>((resolve) => {
        const stop = (sig: string) => {
          console.log(`[web] ${sig}: shutting down`);
          void web.close().finally(resolve);
        };
        process.once("SIGTERM", () => stop("SIGTERM"));
        process.once("SIGINT", () => stop("SIGINT"));
        onLauncherGone(stop);
      });
      return 0;
    }
    case "worker": {
      loadDiagnosisConfig(); // a bad AUTONOMOUS_* value stops here, before the database is touched
      const { handle } = await prepareDatabase({ seed: false, log: console.log });
      const { runWorkerProcess } = await import("./worker");
      await runWorkerProcess(handle.url);
      await handle.stop();
      return 0;
    }
    case "diagnose": {
      // Pure: reads input contexts (JSON or JSON Lines) and prints one diagnosis per input; no database.
      const text = !sub || sub === "-" ? fs.readFileSync(0, "utf8") : fs.existsSync(sub) ? fs.readFileSync(sub, "utf8") : null;
      if (text === null) throw new UsageError(`No such file: ${sub}`);
      const { runDiagnoseCommand } = await import("./diagnose-command");
      return runDiagnoseCommand(text, (l) => console.log(l), (l) => console.error(l));
    }
    case "migrate":
      return withDb({ seed: false }, async () => {
        console.log("Migrations applied.");
        return 0;
      });
    case "seed":
      return withDb({ seed: true }, async () => {
        console.log("Seed done (an existing database is left as it is).");
        return 0;
      });
    case "mission":
      if (sub === "run") return missionRun(rest[0], values.wait, values.json);
      if (sub === "list") return withDb({}, (h) => missionList(h, values.json));
      if (sub === "show") return withDb({}, (h) => missionShow(h, required(rest[0], "mission ID"), values.json));
      if (sub === "explain" && values.verify) {
        const id = required(rest[0], "mission ID");
        if (!isUuid(id)) throw new UsageError(`"${id}" is not a mission ID (a UUID); list them with: faultline mission list`);
        return withDb({}, async (h) => {
          const actor = cliActor();
          await ensureActor(h.db, { id: actor.id, kind: "cli", displayName: actor.name });
          return missionExplainVerify(h.db, { out: (l) => console.log(l), err: (l) => console.error(l) }, { missionId: id, json: values.json, actor, live: values.live, providers: () => agentProviders(env()) });
        });
      }
      if (sub === "explain") return withDb({}, (h) => missionExplain(h, required(rest[0], "mission ID"), values.json));
      if (sub === "validate") return missionValidate(rest[0], values.json);
      if (sub === "watch") {
        const id = required(rest[0], "mission ID");
        if (!isUuid(id)) throw new UsageError(`"${id}" is not a mission ID (a UUID); list them with: faultline mission list`);
        const mode = values.mode ?? "watch";
        if (!isProjectionMode(mode)) throw new UsageError(unknownModeMessage(mode));
        return withDb({}, async (h, url) => {
          try {
            return await missionWatch(h, { out: (t) => console.log(t), err: (t) => console.error(t), input: process.stdin }, { missionId: id, mode, actor: cliActor(), url });
          } catch (e) {
            if (e instanceof WatchUsageError) throw new UsageError(e.message);
            throw e;
          }
        });
      }
      if (sub === "pause" || sub === "resume" || sub === "abort") return withDb({}, (h) => missionControl(h, sub, required(rest[0], "mission ID"), values.note ?? null, values.json));
      throw new UsageError(`Unknown command "mission ${sub ?? ""}". Use run, list, show, explain, validate, watch, pause, resume or abort.`);
    case "proposals":
      return proposalsCommand(sub, rest, values);
    case "gate":
      if (sub === "list") return withDb({}, (h) => gateList(h, values.json));
      if (sub === "decide") return withDb({}, (h, url) => gateDecide(h, url, required(rest[0], "GATE_ID"), required(rest[1], "decision (retry|skip|abort)"), values.note ?? null, values.json));
      throw new UsageError(`Unknown command "gate ${sub ?? ""}". Use list or decide.`);
    case "patterns":
      if (sub === "list") return withDb({}, (h) => patternsList(h, values.json));
      if (sub === "enable" || sub === "disable" || sub === "delete") {
        const id = patternId(rest[0]);
        return withDb({}, (h) => patternChange(h, sub, id, values.json));
      }
      throw new UsageError(`Unknown command "patterns ${sub ?? ""}". Use list, enable, disable or delete.`);
    case "memory": {
      if (sub !== "export") throw new UsageError(`Unknown command "memory ${sub ?? ""}". Use: faultline memory export session|episodic [--mission ID] [--out FILE]`);
      const kind = rest[0];
      if (!(MEMORY_KINDS as readonly string[]).includes(kind ?? "")) throw new UsageError(`Memory kind must be one of ${MEMORY_KINDS.join(", ")} (got ${kind ? `"${kind}"` : "nothing"}).`);
      if (values.mission !== undefined && !isUuid(values.mission)) throw new UsageError(`--mission "${values.mission}" is not a mission ID (a UUID); list them with: faultline mission list`);
      if (values.out !== undefined && !values.out.trim()) throw new UsageError("--out needs a file name.");
      return withDb({}, (h) => memoryExport(h, kind as MemoryKind, values.mission, values.out));
    }
    case "library":
      return libraryCommand(sub, rest, values);
    case "trace":
    case "lab":
      return traceCommand(cmd, sub, rest, values);
    case "mcp":
      return mcpCommand(sub, values);
    case "hooks": {
      if (sub !== "install" || rest[0] !== "claude") throw new UsageError(`Usage: faultline hooks install claude`);
      console.error(CLAUDE_INSTALL_NOTE);
      console.log(JSON.stringify(claudeSettingsSnippet(), null, 2));
      return 0;
    }
    default:
      throw new UsageError(`Unknown command "${cmd}".`);
  }
}


function patternId(v: string | undefined): string {
  const id = required(v, "PATTERN_ID");
  if (!isUuid(id)) throw new UsageError(`"${id}" is not a pattern ID (a UUID); list them with: faultline patterns list`);
  return id;
}

function required(v: string | undefined, what: string): string {
  if (!v) throw new UsageError(`Missing ${what}.`);
  return v;
}

/** The CLI is an actor of its own in the event log and the audit log (via cli, no address). */
function cliActor(): AuditActor {
  const user = os.userInfo().username;
  return { id: `cli:${user}`, name: `CLI (${user})`, via: "cli", ip: null, userAgent: "faultline-cli" };
}

async function withDb(opts: { seed?: boolean }, fn: (h: DbHandle, url: string) => Promise<number>): Promise<number> {
  const { handle: server } = await prepareDatabase({ seed: opts.seed ?? false, log: () => {} });
  const h = createDb(server.url, { max: 4, applicationName: "faultline-cli" });
  try {
    const actor = cliActor();
    await ensureActor(h.db, { id: actor.id, kind: "cli", displayName: actor.name });
    return await fn(h, server.url);
  } finally {
    await h.close();
    await server.stop();
  }
}

function readDefinition(file: string | undefined): string {
  if (!file) throw new UsageError("Missing FILE: give a path to a YAML or JSON mission definition, or - for standard input.");
  if (file === "-") return fs.readFileSync(0, "utf8");
  if (!fs.existsSync(file)) throw new UsageError(`No such file: ${file}`);
  return fs.readFileSync(file, "utf8");
}

async function missionRun(file: string | undefined, wait: boolean, json: boolean): Promise<number> {
  // A bad AUTONOMOUS_* value would stop the in-process worker: say so before a mission is created.
  loadDiagnosisConfig();
  const parsed = parseMissionDefinition(readDefinition(file));
  if (!parsed.ok) {
    if (json) console.log(JSON.stringify({ error: { code: "invalid_definition", message: "The mission definition is invalid.", fieldErrors: parsed.errors } }));
    else {
      console.error(`The mission definition in ${file} is invalid:`);
      for (const e of parsed.errors) console.error(`  ${e.path || "(definition)"}: ${e.message}`);
    }
    return EXIT.USAGE;
  }
  return withDb({}, async (h, url) => {
    const actor = cliActor();
    const state = await createMission(h.db, { definition: parsed.definition, actorId: actor.id, audit: actor });
    const inProcess = await inProcessWorkerIfNone(h, url, state.id);
    if (!wait && !inProcess) {
      const row = await getMissionById(h.db, state.id);
      print(json, { mission: summary(row!.state) }, () => `Mission ${state.id} "${state.name}" queued; a running worker will pick it up.\nFollow it: faultline mission show ${state.id}`);
      return 0;
    }
    try {
      const final = await waitForRest(h, url, state.id);
      return report(h, final, json);
    } finally {
      await inProcess?.stop();
    }
  });
}

/** Without a running worker (no `npm start`), the CLI runs the mission itself with an in-process worker. */
async function inProcessWorkerIfNone(h: DbHandle, url: string, missionId: string): Promise<{ stop(): Promise<void> } | null> {
  if ((await liveWorkers(h)) > 0) return null;
  const [{ Worker }, { workerOptions }] = await Promise.all([import("./orchestrator/worker"), import("./worker")]);
  const w = new Worker({ ...workerOptions(h, url), concurrency: 1, onlyMissionId: missionId, log: () => {} });
  await w.start();
  return w;
}

async function liveWorkers(h: DbHandle): Promise<number> {
  const stale = Math.max(env().FAULTLINE_HEARTBEAT_MS * 3, 5000);
  const [r] = await h.db
    .select({ n: sql<number>`count(*)::int` })
    .from(workers)
    .where(and(eq(workers.active, true), gt(workers.heartbeatAt, sql`now() - (${stale}::int * interval '1 millisecond')`)));
  return r.n;
}

/** Waits until the mission is terminal or paused at a gate (LISTEN, with polling as a fallback). */
async function waitForRest(h: DbHandle, url: string, id: string): Promise<MissionState> {
  const waker = wakeOnNotify(url, EVENTS_CHANNEL, { applicationName: "faultline-cli-wait", matches: (p) => p.includes(id) });
  await waker.ready;
  try {
    for (;;) {
      const row = await getMissionById(h.db, id);
      const s = row!.state;
      if (s.runState === "completed" || s.runState === "failed" || s.runState === "paused") return s;
      await waker.sleep(1000);
    }
  } finally {
    await waker.close();
  }
}

function summary(s: MissionState) {
  return { id: s.id, name: s.name, phase: s.phase, runState: s.runState, finalStatus: s.finalStatus, progress: s.agentOrder.filter((n) => ["completed", "skipped"].includes(s.agents[n].status) || s.agents[n].tolerated).length / Math.max(1, s.agentOrder.length), startedAt: s.startedAt, endedAt: s.endedAt };
}

function openGates(s: MissionState) {
  return s.gates.filter((g) => g.status === "open").map((g) => ({ id: g.id, agent: g.agent, phase: g.phase, what: g.error.what, why: g.error.why, options: g.options, openedAt: g.openedAt }));
}

async function report(h: DbHandle, s: MissionState, json: boolean): Promise<number> {
  const gates = openGates(s);
  print(json, { mission: summary(s), finalStatus: s.finalStatus, explanation: s.finalStatus ? explainFinalStatus(s) : null, openGates: gates }, () => describe(s));
  if (gates.length) return EXIT.GATE;
  return s.finalStatus === "SUCCESS" ? EXIT.SUCCESS : s.finalStatus === "PARTIAL_SUCCESS" ? EXIT.PARTIAL_SUCCESS : EXIT.FAILED;
}

function describe(s: MissionState): string {
  const lines = [`Mission ${s.id} "${s.name}"`, `  phase: ${s.phase}   state: ${s.runState}${s.finalStatus ? `   final status: ${s.finalStatus}` : ""}`];
  if (s.finalStatus) lines.push(`  ${explainFinalStatus(s)}`);
  for (const n of s.agentOrder) {
    const a = s.agents[n];
    lines.push(`  agent ${a.name.padEnd(20)} ${a.priority.padEnd(9)} ${a.status}${a.attempt > 1 ? ` (attempt ${a.attempt})` : ""}${a.error ? ` — ${a.error.code}: ${a.error.message}` : ""}`);
  }
  for (const g of openGates(s)) {
    lines.push(`  OPEN GATE ${g.id}`, `    what: ${g.what}`, `    why:  ${g.why ?? "unknown"}`);
    for (const o of g.options) lines.push(`    [${o.action}]${o.recommended ? " (recommended)" : ""} ${o.description}`);
    lines.push(`    decide: faultline gate decide ${g.id} ${g.options.find((o) => o.recommended)?.action ?? "abort"} --note "…"`);
  }
  return lines.join("\n");
}

async function missionList(h: DbHandle, json: boolean): Promise<number> {
  const rows = await listMissions(h.db);
  print(json, rows, () => rows.map((m) => `${m.id}  ${m.runState.padEnd(9)} ${(m.finalStatus ?? "").padEnd(15)} ${m.phase.padEnd(18)} ${m.openGates ? `${m.openGates} gate(s) ` : ""}${m.name}`).join("\n") || "No missions yet.");
  return 0;
}

async function missionShow(h: DbHandle, id: string, json: boolean): Promise<number> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError(`"${id}" is not a mission ID (a UUID); list them with: faultline mission list`);
  const row = await getMissionById(h.db, id);
  if (!row) {
    console.error(`No mission ${id}. List them with: faultline mission list`);
    return EXIT.FAILED;
  }
  const events = await listEventsAfter(h.db, { missionId: id });
  const s = row.state;
  const proposals = (await proposalsList(h, id)).map((p) => p);
  const why = explainMission(s);
  print(
    json,
    { mission: summary(s), finalStatus: s.finalStatus, explanation: s.finalStatus ? explainFinalStatus(s) : null, failureReason: why.failureReason, failureExplanation: why.explanation, level: why.level, agents: s.agentOrder.map((n) => s.agents[n]), openGates: openGates(s), proposals, events },
    () =>
      [
        describe(s),
        ...(why.level.warning ? [`  WARNING: ${why.level.warning}`] : []),
        ...(proposals.length ? ["", "  proposals:", ...proposals.map((p) => `    ${oneLine(p)}`)] : []),
        "",
        ...events.map((e) => `  #${String(e.seq).padStart(3)} ${e.at}  ${e.type.padEnd(17)} ${e.actorId.padEnd(28)} ${e.reason}`),
      ].join("\n"),
  );
  return 0;
}

async function missionExplain(h: DbHandle, id: string, json: boolean): Promise<number> {
  if (!isUuid(id)) throw new UsageError(`"${id}" is not a mission ID (a UUID); list them with: faultline mission list`);
  const row = await getMissionById(h.db, id);
  if (!row) {
    console.error(`No mission ${id}. List them with: faultline mission list`);
    return EXIT.FAILED;
  }
  const e = explainMission(row.state);
  print(json, { finalStatus: e.finalStatus, failureReason: e.failureReason, explanation: e.explanation, level: e.level }, () => explainText(row.state, e));
  return 0;
}

/** Checks a definition without starting it: field errors (exit 2), else its necessity level and warnings (exit 0). */
async function missionValidate(file: string | undefined, json: boolean): Promise<number> {
  const parsed = parseMissionDefinition(readDefinition(file));
  if (!parsed.ok) {
    if (json) console.log(JSON.stringify({ ok: false, errors: parsed.errors }, null, 2));
    else {
      console.error(`The mission definition in ${file} is invalid:`);
      for (const e of parsed.errors) console.error(`  ${e.path || "(definition)"}: ${e.message}`);
    }
    return EXIT.USAGE;
  }
  const lv = missionLevel(parsed.definition);
  const warnings = lv.warning ? [lv.warning] : [];
  print(json, { ok: true, name: parsed.definition.name, level: { effective: lv.effective, declared: lv.declared, observation: lv.observation, rules: lv.rules, language: lv.language, why: lv.why }, warnings }, () =>
    [`The definition "${parsed.definition.name}" is valid.`, `  necessity level ${lv.effective}${lv.why.length ? `: ${lv.why.join("; ")}` : ": no model is involved (level 0)"}`, ...warnings.map((w) => `  WARNING: ${w}`)].join("\n"),
  );
  return 0;
}

async function proposalsCommand(sub: string | undefined, rest: string[], v: { json: boolean; mission?: string; note?: string; args?: string; scope?: string }): Promise<number> {
  try {
    if (sub === "list") {
      return await withDb({}, async (h) => {
        const rows = await proposalsList(h, v.mission);
        print(v.json, { proposals: rows }, () => rows.map(oneLine).join("\n") || (v.mission ? "This mission has no proposals." : "No proposal waits for a decision."));
        return 0;
      });
    }
    if (sub === "show") {
      return await withDb({}, async (h) => {
        const r = await proposalShow(h, rest[0]);
        if (!r) {
          console.error(`No proposal ${rest[0]}. List them with: faultline proposals list`);
          return EXIT.FAILED;
        }
        print(v.json, r, () => [detail(r.proposal), ...(r.prompt ? ["", "  prompt:", ...JSON.stringify(r.prompt, null, 2).split("\n").map((l) => `    ${l}`)] : [])].join("\n"));
        return 0;
      });
    }
    if (sub === "approve" || sub === "reject" || sub === "modify") {
      const answer = parseAnswer(sub, { args: v.args, scope: v.scope, note: v.note });
      return await withDb({}, async (h, url) => {
        const { state, proposal } = await proposalDecide(h, rest[0], answer, cliActor(), env().FAULTLINE_APPROVAL_TTL_MS);
        const inProcess = proposal.status === "approved" ? await inProcessWorkerIfNone(h, url, state.id) : null;
        try {
          const after = inProcess ? await waitForRest(h, url, state.id) : state;
          print(v.json, { proposal, mission: summary(after), openGates: openGates(after) }, () => `${detail(proposal)}\n\n${describe(after)}`);
          return 0;
        } finally {
          await inProcess?.stop();
        }
      });
    }
  } catch (e) {
    if (e instanceof ProposalsUsageError) throw new UsageError(e.message);
    throw e;
  }
  throw new UsageError(`Unknown command "proposals ${sub ?? ""}". Use list, show, approve, reject or modify.`);
}

async function missionControl(h: DbHandle, what: "pause" | "resume" | "abort", id: string, note: string | null, json: boolean): Promise<number> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError(`"${id}" is not a mission ID (a UUID); list them with: faultline mission list`);
  const actor = cliActor();
  if (what === "abort") {
    const s = await abortMission(h.db, { missionId: id, actor: { ...actor, via: "cli" }, note });
    print(json, { mission: summary(s), aborted: s.aborted }, () => `Mission "${s.name}" is aborted: it ends FAILED once its compensations (if any) have run.`);
    return 0;
  }
  const s =
    what === "pause"
      ? await pauseMission(h.db, { missionId: id, actorId: actor.id, kind: "operator", message: `${actor.name} paused the mission${note ? `: ${note}` : "."}`, audit: actor })
      : await resumeMission(h.db, { missionId: id, actorId: actor.id, message: `${actor.name} resumed the mission${note ? `: ${note}` : "."}`, audit: actor });
  print(json, { mission: summary(s), paused: s.paused }, () => `Mission "${s.name}" ${what === "pause" ? "pauses at its next step boundary" : "resumed"}.`);
  return 0;
}

async function gateList(h: DbHandle, json: boolean): Promise<number> {
  const rows = await listOpenGates(h.db);
  print(json, rows.map((r) => ({ ...r.gate, missionName: r.missionName })), () => rows.map((r) => `${r.gate.id}  ${r.gate.openedAt}  ${r.missionName} / ${r.gate.agent}: ${r.gate.error.what}`).join("\n") || "No open gates.");
  return 0;
}

async function gateDecide(h: DbHandle, url: string, gateId: string, decision: string, note: string | null, json: boolean): Promise<number> {
  if (!(GATE_DECISIONS as readonly string[]).includes(decision)) throw new UsageError(`Decision must be one of ${GATE_DECISIONS.join(", ")} (got "${decision}"); the gate lists the ones it offers.`);
  if (!/^[0-9a-f-]{36}$/i.test(gateId)) throw new UsageError(`"${gateId}" is not a gate ID (a UUID); list open gates with: faultline gate list`);
  const actor = cliActor();
  const s = await decideGate(h.db, { gateId, decision: decision as GateDecision, note, actorId: actor.id, actorName: actor.name });
  const inProcess = await inProcessWorkerIfNone(h, url, s.id);
  if (!inProcess) {
    print(json, { mission: summary(s), gate: s.gates.find((g) => g.id === gateId) }, () => `Gate ${gateId}: ${decision} recorded for mission "${s.name}". The worker acts on it now.`);
    return 0;
  }
  try {
    const after = await waitForRest(h, url, s.id);
    print(json, { mission: summary(after), gate: after.gates.find((g) => g.id === gateId), openGates: openGates(after) }, () => `Gate ${gateId}: ${decision} recorded.\n${describe(after)}`);
    return 0;
  } finally {
    await inProcess.stop();
  }
}

async function patternsList(h: DbHandle, json: boolean): Promise<number> {
  const rows = await listPatterns(h.db);
  const pct = (x: number) => `${Math.round(x * 100)}%`.padStart(4);
  print(json, rows, () =>
    rows.length
      ? rows.map((p) => `${p.id}  ${(p.enabled ? "enabled" : "disabled").padEnd(8)} ${pct(p.confidence)} (${p.successes} ok, ${p.failures} failed; fast path at ${pct(p.threshold)})  ${p.when} → ${p.then}`).join("\n")
      : "No learned patterns yet: each recovery that runs records its outcome.",
  );
  return 0;
}

async function patternChange(h: DbHandle, what: "enable" | "disable" | "delete", id: string, json: boolean): Promise<number> {
  if (what === "delete") {
    const row = await getPattern(h.db, id);
    await deletePattern(h.db, id, cliActor());
    print(json, { deleted: id }, () => `Pattern ${id}${row ? ` (${row.when} → ${row.then})` : ""} deleted; later recoveries start a new record.`);
    return 0;
  }
  const row = await updatePattern(h.db, id, { enabled: what === "enable" }, cliActor());
  print(json, row, () => `Pattern ${row.when} → ${row.then} ${row.enabled ? "enabled: the fast path may apply it again" : "disabled: the fast path no longer applies it"}.`);
  return 0;
}

/** ADR-0003 memory as JSON Lines, streamed (constant memory): to stdout, or to FILE (written whole or not at all). */
async function memoryExport(h: DbHandle, kind: MemoryKind, missionId: string | undefined, out: string | undefined): Promise<number> {
  if (missionId && !(await getMissionById(h.db, missionId))) {
    console.error(`No mission ${missionId}. List them with: faultline mission list`);
    return EXIT.FAILED;
  }
  const tmp = out ? path.join(path.dirname(path.resolve(out)), `.${path.basename(out)}.${process.pid}.partial`) : null;
  const sink: NodeJS.WritableStream = tmp ? fs.createWriteStream(tmp, { flags: "wx" }) : process.stdout;
  const failed = new Promise<never>((_, reject) => sink.once("error", reject));
  failed.catch(() => {});
  let n = 0;
  try {
    await recordMemoryExport(h.db, cliActor(), kind, missionId);
    for await (const record of memoryRecords(h.db, kind, { missionId })) {
      n++;
      if (!sink.write(`${JSON.stringify(record)}\n`)) await Promise.race([once(sink, "drain"), failed]);
    }
    if (tmp) {
      await Promise.race([new Promise<void>((resolve) => (sink as fs.WriteStream).end(resolve)), failed]);
      fs.renameSync(tmp, out!);
      console.error(`Wrote ${n} ${kind} memory record${n === 1 ? "" : "s"} to ${out}.`);
    }
    return 0;
  } catch (e) {
    if (tmp) {
      (sink as fs.WriteStream).destroy();
      fs.rmSync(tmp, { force: true });
    }
    throw e;
  }
}

/** `faultline library …`: on the embedded default database; an empty library gets the starter library first. */
/** FDR-N004: trace export / verify and lab replay (server/trace-command.ts). */
async function traceCommand(cmd: string, sub: string | undefined, rest: string[], v: { json: boolean; out?: string; seed?: string; repeat?: string; compare?: string; traces?: string; "no-record"?: boolean; rules?: string; set?: string[]; flag?: string[]; live?: boolean }): Promise<number> {
  const io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) };
  if (cmd === "lab" && sub === "run") {
    const { labRun } = await import("./lab-command");
    // Recorded for the console's Lab page unless --no-record; the database is opened only once the suite is valid.
    const record = v["no-record"]
      ? undefined
      : async () => {
          const { databaseRecorder } = await import("./lab-recorder");
          const { handle: server } = await prepareDatabase({ seed: false, log: () => {} });
          const h = createDb(server.url, { max: 2, applicationName: "faultline-cli" });
          const actor = cliActor();
          await ensureActor(h.db, { id: actor.id, kind: "cli", displayName: actor.name });
          return databaseRecorder(h.db, actor, async () => {
            await h.close();
            await server.stop();
          });
        };
    return labRun(io, { file: rest[0], seed: v.seed, repeat: v.repeat, compare: v.compare, json: v.json, out: v.out, traces: v.traces, record, progress: { isTTY: Boolean(process.stderr.isTTY), columns: process.stderr.columns ?? 80, write: (t) => process.stderr.write(t) } });
  }
  if (cmd === "trace" && sub === "export") {
    const missionId = missionIdArg(rest[0]);
    if (v.out !== undefined && !v.out.trim()) throw new UsageError("-o needs a file name.");
    return withDb({}, (h) => traceExport(h.db, io, { missionId, out: v.out }));
  }
  if (cmd === "trace" && sub === "verify") return traceVerify(io, { file: rest[0], json: v.json });
  const withLibrary = async <T,>(fn: (db: DbHandle["db"]) => Promise<T>): Promise<T> => {
    let out: T | undefined;
    await withDb({}, async (h) => {
      out = await fn(h.db);
      return 0;
    });
    return out as T;
  };
  if (cmd === "lab" && sub === "replay") {
    const counterfactual = v.rules !== undefined || v.set?.length || v.flag?.length || v.live ? { rules: v.rules, set: v.set, flag: v.flag, live: v.live, providers: () => agentProviders(env()) } : undefined;
    return labReplay(io, { file: rest[0], json: v.json, withLibrary, counterfactual });
  }
  throw new UsageError(cmd === "trace" ? `Unknown command "trace ${sub ?? ""}". Use: faultline trace export ID [-o FILE] | faultline trace verify FILE` : `Unknown command "lab ${sub ?? ""}". Use: faultline lab replay FILE [--json] | faultline lab run SUITE.yaml [--seed N] [--repeat K]`);
}

async function libraryCommand(sub: string | undefined, rest: string[], v: { json: boolean; replace: boolean; "dry-run": boolean; deprecated: boolean; format?: string; out?: string; batch?: string; limit?: string }): Promise<number> {
  const io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) };
  const withLibrary = (fn: (h: DbHandle) => Promise<number>) =>
    withDb({}, async (h) => {
      await ensureActor(h.db, { id: SYSTEM_ACTOR, kind: "system", displayName: "Faultline seed" });
      await loadStarterLibrary(h.db, starterLibrary(), SYSTEM_ACTOR);
      return fn(h);
    });
  if (sub === "import") {
    const text = readInput(rest[0], "FILE (the library file to import)"); // a missing file fails before the database starts
    return withLibrary((h) => libraryImport(h.db, io, { text, file: rest[0], replace: v.replace, dryRun: v["dry-run"], json: v.json, authorId: cliActor().id, audit: cliActor() }));
  }
  if (sub === "export") {
    parseFormat(v.format, "yaml");
    return withLibrary((h) => libraryExport(h.db, io, { format: v.format, out: v.out, includeDeprecated: v.deprecated }));
  }
  if (sub === "query") {
    const limit = parseLimit(v.limit);
    if (v.batch !== undefined) {
      const text = readInput(v.batch, "--batch FILE (JSON Lines of queries)");
      return withLibrary((h) => libraryQueryBatch(h.db, io, { text, limit }));
    }
    return withLibrary((h) => libraryQuery(h.db, io, { query: rest[0], limit, json: v.json }));
  }
  throw new UsageError(`Unknown command "library ${sub ?? ""}". Use import, export or query.`);
}

/** `faultline mcp`: the MCP gateway (server/mcp-gateway.ts); stdout is the MCP channel, so it logs to stderr. */
async function mcpCommand(extra: string | undefined, v: { upstream?: string; "upstream-url"?: string; run?: string; name?: string; listen?: string }): Promise<number> {
  const how = 'Use: faultline mcp --upstream "COMMAND ARGS" (a stdio MCP server) or --upstream-url URL (a Streamable HTTP one), e.g. faultline mcp --upstream "npx -y @modelcontextprotocol/server-filesystem ."';
  if (extra) throw new UsageError(`faultline mcp takes no positional argument (got "${extra}"); quote the upstream command: --upstream "COMMAND ARGS". ${how}`);
  if (v.upstream === undefined && v["upstream-url"] === undefined) throw new UsageError(`faultline mcp needs the upstream MCP server: --upstream "COMMAND ARGS" or --upstream-url URL. ${how}`);
  if (v.upstream !== undefined && v["upstream-url"] !== undefined) throw new UsageError(`Give either --upstream or --upstream-url, not both: the gateway fronts one MCP server. ${how}`);
  if (v.run !== undefined && v.name !== undefined) throw new UsageError("Give either --run ID (propose on an existing run) or --name NAME (name the new run), not both.");
  if (v.run !== undefined && !isUuid(v.run)) throw new UsageError(`--run "${v.run}" is not a run ID (a UUID); list runs with: faultline mission list`);
  let upstream: Upstream;
  if (v.upstream !== undefined) {
    const words = parseShell(v.upstream);
    if (!words.length || words.some((w) => typeof w !== "string")) throw new UsageError(`--upstream must be a command and its arguments, without shell operators (got "${v.upstream}"). ${how}`);
    const [command, ...args] = words as string[];
    upstream = { command, args };
  } else {
    try {
      const u = new URL(v["upstream-url"]!);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http");
    } catch {
      throw new UsageError(`--upstream-url must be an http(s) URL of a Streamable HTTP MCP server, e.g. http://127.0.0.1:3001/mcp (got "${v["upstream-url"]}").`);
    }
    upstream = { url: v["upstream-url"]! };
  }
  let port: number | null = null;
  if (v.listen !== undefined) {
    port = Number(v.listen);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--listen must be a port number, 0 to 65535 (got "${v.listen}").`);
  }
  const { startGateway, listenHttp } = await import("./mcp-gateway");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  return withDb({}, async (h) => {
    const log = (l: string) => console.error(l);
    const gw = await startGateway({ db: h.db, actor: cliActor(), upstream, runId: v.run, name: v.name, approvalTtlMs: env().FAULTLINE_APPROVAL_TTL_MS, log });
    log(`[mcp] proposals go to run ${gw.runId} (faultline mission show ${gw.runId})`);
    if (port === null) {
      // stdio: one client; the run finishes when it disconnects (or on a signal).
      const t = new StdioServerTransport();
      process.stdin.once("end", () => void t.close());
      const stop = (sig: string) => {
        log(`[mcp] ${sig}: finishing run ${gw.runId}`);
        void gw.close("The MCP gateway stopped.");
      };
      process.once("SIGTERM", () => stop("SIGTERM"));
      process.once("SIGINT", () => stop("SIGINT"));
      await gw.connect(t);
      await gw.closed;
      return 0;
    }
    // Streamable HTTP: any number of sessions, one after another or at once, all on the one run; it
    // finishes when the gateway stops (SIGINT/SIGTERM).
    let listener: HttpListener;
    try {
      listener = await listenHttp(gw, port);
    } catch (e) {
      log(`[mcp] cannot listen on port ${port}: ${(e as Error).message}`);
      await gw.close("The gateway could not listen for MCP clients.");
      return EXIT.FAILED;
    }
    log(`[mcp] listening on ${listener.url}`);
    await new Promise<void>((resolve) => {
      const stop = (sig: string) => {
        log(`[mcp] ${sig}: closing ${listener.sessions()} session(s) and finishing run ${gw.runId}`);
        void listener.close().finally(() => void gw.close("The MCP gateway stopped.").finally(resolve));
      };
      process.once("SIGTERM", () => stop("SIGTERM"));
      process.once("SIGINT", () => stop("SIGINT"));
    });
    return 0;
  });
}

function print(json: boolean, data: unknown, text: () => string): void {
  console.log(json ? JSON.stringify(data, null, 2) : text());
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof TraceUsageError) {
      console.error((e as Error).message);
      process.exit(EXIT.USAGE);
    }
    if (e instanceof UsageError || e instanceof LibraryUsageError || (e as { code?: string }).code?.startsWith?.("ERR_PARSE_ARGS")) {
      console.error(`${(e as Error).message}\n\n${USAGE}`);
      process.exit(EXIT.USAGE);
    }
    if (e instanceof EnvError) console.error(e.message);
    else if (e instanceof DiagnosisConfigError) console.error(`${e.message}\nFix these variables (see docs/configuration.md) and start again.`);
    else if (isAppError(e)) console.error(e.userMessage);
    else console.error(`faultline: ${(e as Error).message ?? e}`);
    process.exit(1);
  },
);
