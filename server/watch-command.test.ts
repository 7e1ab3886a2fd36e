import { spawn, execFile, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { createMission, listEventsAfter } from "../db/queries/events";
import { ensureActor } from "../db/queries/users";
import { missionDefinitionSchema } from "../lib/mission";
import { parseMissionDefinition } from "../lib/mission";

/**
 * `faultline mission watch` as a person runs it: the real CLI process following a mission that a real
 * worker process runs, in the real PostgreSQL; input on its standard input (one command a line, as when
 * stdin is not a terminal).
 */

let tdb: TestDatabase;
let dataDir: string;
let worker: ChildProcessWithoutNullStreams;
/** The compiled CLI (server/cli-test-build.ts): the same sources, without tsx loading them on every command. */
const BIN = inject("cliEntry");
const env = () => ({ ...process.env, DATABASE_URL: tdb.url, FAULTLINE_DATA_DIR: dataDir, FAULTLINE_POLL_MS: "200" });

beforeAll(async () => {
  tdb = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-watch-"));
  await ensureActor(tdb.db, { id: "u-watch", kind: "user", displayName: "Watcher" });
  worker = spawn(process.execPath, [BIN, "worker"], { env: env() });
});
afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const gone = new Promise((r) => worker.once("exit", r));
    worker.kill("SIGTERM");
    await gone;
  }
  await tdb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A running `faultline mission watch`: its output so far, a way to wait for a line, to type, and its exit
 * code. `tty`: on a pseudo-terminal (util-linux `script`), so keys arrive one by one in raw mode.
 */
function watch(args: string[], opts: { tty?: boolean } = {}) {
  const command = [process.execPath, BIN, "mission", "watch", ...args];
  const child = opts.tty ? spawn("script", ["-qfec", command.map((a) => `'${a}'`).join(" "), "/dev/null"], { env: env() }) : spawn(command[0], command.slice(1), { env: env() });
  let stdout = "";
  let stderr = "";
  const waiters: Array<() => void> = [];
  const poke = () => waiters.splice(0).forEach((w) => w());
  child.stdout.on("data", (d) => {
    stdout += d;
    poke();
  });
  child.stderr.on("data", (d) => {
    stderr += d;
    poke();
  });
  const exit = new Promise<number>((r) => child.once("exit", (code) => r(code ?? 1)));
  exit.then(poke);
  return {
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exit,
    type: (line: string) => child.stdin.write(`${line}\n`),
    key: (k: string) => child.stdin.write(k),
    /** Waits until stdout or stderr matches (or the process ended: then the assertion after it fails). */
    async until(re: RegExp, where: "stdout" | "stderr" = "stdout") {
      let ended = false;
      exit.then(() => (ended = true));
      while (!re.test(where === "stdout" ? stdout : stderr) && !ended) await new Promise<void>((r) => waiters.push(r));
      expect(where === "stdout" ? stdout : stderr).toMatch(re);
    },
  };
}

async function mission(yaml: string) {
  const parsed = parseMissionDefinition(yaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return createMission(tdb.db, { definition: missionDefinitionSchema.parse(parsed.definition), actorId: "u-watch" });
}

const blocked = `
name: Watch blocked deploy
objective: Copy the artifact
allowedBinaries: [node]
phases:
  - name: PLANNING
    agents:
      - name: planner
        priority: critical
        steps: [{ tool: shell, args: { command: node, args: ["-e", "console.log('ok')"] } }]
  - name: EXECUTION
    agents:
      - name: uploader
        priority: critical
        steps: [{ tool: shell, args: { command: scp, args: [a, b] } }]
`;

describe("faultline mission watch", () => {
  it("draws every event once, in seq order, and exits with the final status", async () => {
    const m = await mission(fs.readFileSync(path.resolve("examples/hello.yaml"), "utf8"));
    const w = watch([m.id, "--mode", "watch"]);
    const code = await w.exit;
    expect(code, w.stderr).toBe(0);
    const all = await listEventsAfter(tdb.db, { missionId: m.id });
    expect(all.at(-1)?.type).toBe("mission.finished");
    const drawn = [...w.stdout.matchAll(/^#\s*(\d+) (\S+)/gm)].map((x) => `${x[1]} ${x[2]}`);
    expect(drawn).toEqual(all.map((e) => `${e.seq} ${e.type}`));
    expect(w.stdout).toMatch(/^── Mission "/);
    expect(w.stdout).toMatch(/── final status: SUCCESS \(last seq \d+\)\n$/);
  });

  it("switches mode from stdin and answers the open gate in interactive mode through the CLI's decision path", async () => {
    const m = await mission(blocked);
    const w = watch([m.id]); // default mode: watch
    await w.until(/OPEN GATE [0-9a-f-]+: .*\(view only/);
    w.type("1");
    await w.until(/Answering a gate needs interactive or debug mode \(this is watch\): press i/, "stderr");
    w.type("i");
    await w.until(/── mode: interactive/, "stderr");
    await w.until(/\[\d\] abort: /);
    w.type("d");
    await w.until(/── mode: debug/, "stderr");
    const mark = w.stdout.length;
    w.type("abort no scp here");
    await w.until(/gate [0-9a-f-]+: abort recorded \(by CLI/, "stderr");
    expect(await w.exit, w.stderr).toBe(1);
    const after = w.stdout.slice(mark);
    expect(after).toMatch(/#\s*\d+ gate\.resolved/);
    expect(after).toMatch(/~ gates\[0\]: .*"status":"resolved"/); // debug: the state's changed parts at each seq
    expect(after).toMatch(/── final status: FAILED/);
    const resolved = (await listEventsAfter(tdb.db, { missionId: m.id })).find((e) => e.type === "gate.resolved");
    expect(resolved?.actorId).toMatch(/^cli:/);
    expect(resolved?.payload).toMatchObject({ decision: "abort", note: "no scp here" });
  });

  it("on a terminal: single keys switch the mode and answer the gate by its option's number", async () => {
    const m = await mission(blocked.replace("Watch blocked deploy", "Watch blocked deploy on a tty"));
    const w = watch([m.id, "--mode", "watch"], { tty: true });
    await w.until(/OPEN GATE [0-9a-f-]+: .*\(view only/);
    w.key("i");
    await w.until(/── mode: interactive/);
    await w.until(/\[(\d)\] abort: /);
    const n = /\[(\d)\] abort: /.exec(w.stdout)![1];
    w.key(n);
    await w.until(/gate [0-9a-f-]+: abort recorded/);
    await w.until(/── final status: FAILED/);
    expect(await w.exit, w.stdout).toBe(1);
    const resolved = (await listEventsAfter(tdb.db, { missionId: m.id })).find((e) => e.type === "gate.resolved");
    expect(resolved?.payload).toMatchObject({ decision: "abort", note: "answered from faultline mission watch" });
  });

  it("draws a grid-world mission with its domain's renderers: each move, and the board after it (interactive)", async () => {
    const m = await mission(fs.readFileSync(path.resolve("examples/gridworld.yaml"), "utf8"));
    const w = watch([m.id, "--mode", "interactive"]);
    expect(await w.exit, w.stderr).toBe(0);
    expect(w.stderr).toMatch(/── domain: gridworld/);
    expect(w.stdout.match(/moves to \(\d,\d\)/g)).toEqual(["moves to (0,0)", "moves to (0,3)", "moves to (3,3)", "moves to (3,1)", "moves to (5,1)", "moves to (5,3)"]);
    expect(w.stdout).toContain(["      |     0 1 2 3 4 5", "      |   0 * . # . . .", "      |   1 . . # * . *", "      |   2 . . # . # .", "      |   3 * . . * # A", "      |     agent at (5,3) — at the goal; 6 move(s)"].join("\n"));
    expect(w.stdout).toMatch(/── final status: SUCCESS/);
  });

  it("bad input: an unknown mode, a malformed or unknown id — a clear error and exit 2", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) => execFile(process.execPath, [BIN, "mission", "watch", ...args], { env: env(), timeout: 60_000 }, (err, _o, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr })));
    const m = await mission(fs.readFileSync(path.resolve("examples/hello.yaml"), "utf8"));
    const mode = await run([m.id, "--mode", "loud"]);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/Unknown projection mode "loud": use one of silent, watch, interactive, debug/);
    const unknown = await run(["00000000-0000-4000-8000-000000000000"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No mission 00000000-0000-4000-8000-000000000000\. List them with: faultline mission list/);
    const malformed = await run(["nope"]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/"nope" is not a mission ID/);
  });
});
