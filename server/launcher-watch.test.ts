import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("a process started by the launcher", () => {
  it("stops when the launcher is killed with SIGKILL (it cannot stop its children then)", async () => {
    const child = path.join(import.meta.dirname, "launcher-watch.fixture.ts");
    // The "launcher": spawns the child with an IPC channel, says its pid, then waits forever.
    const launcher = spawn(process.execPath, ["-e", `const c=require("node:child_process").spawn(process.execPath,["--import","tsx",${JSON.stringify(child)}],{stdio:["ignore","inherit","inherit","ipc"]});c.on("message",(m)=>{console.log(JSON.stringify({child:c.pid,ready:m}))});setInterval(()=>{},1000);`], { stdio: ["ignore", "pipe", "inherit"] });
    const childPid = await new Promise<number>((resolve, reject) => {
      launcher.stdout.on("data", (b: Buffer) => {
        const line = b.toString().trim().split("\n").find((l) => l.startsWith("{"));
        if (line) resolve((JSON.parse(line) as { child: number }).child);
      });
      launcher.once("exit", () => reject(new Error("the launcher exited before its child was ready")));
    });
    expect(alive(childPid)).toBe(true);
    launcher.kill("SIGKILL");
    await expect.poll(() => alive(childPid), { timeout: 10_000, interval: 50 }).toBe(false);
  });
});

describe("the launcher under npm start", () => {
  // A child left running by a failed assertion is stopped, not left behind for the rest of the suite.
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  });
  /** A stand-in for npm: runs the fixture with npm's environment (or without it) and says the child's pid. */
  const underNpm = async (npmEnv: boolean) => {
    const child = path.join(import.meta.dirname, "npm-watch.fixture.ts");
    const env = { ...process.env, npm_lifecycle_event: npmEnv ? "start" : "" };
    const npm = spawn(process.execPath, ["-e", `const c=require("node:child_process").spawn(process.execPath,["--import","tsx",${JSON.stringify(child)}],{stdio:["ignore","inherit","inherit"]});console.log(JSON.stringify({child:c.pid}));setInterval(()=>{},1000);`], { stdio: ["ignore", "pipe", "inherit"], env });
    const lines: string[] = [];
    started.push(npm.pid!);
    npm.stdout.on("data", (b: Buffer) => {
      const got = b.toString().split("\n").filter((l) => l.startsWith("{"));
      lines.push(...got);
      for (const l of got) if (l.startsWith('{"child"')) started.push((JSON.parse(l) as { child: number }).child);
    });
    // The child is watching once it says it is ready.
    await expect.poll(() => lines.some((l) => l.startsWith('{"ready"')), { timeout: 10_000, interval: 20 }).toBe(true);
    const childPid = (JSON.parse(lines.find((l) => l.startsWith('{"child"'))!) as { child: number }).child;
    return { npm, childPid, lines };
  };

  it("stops when npm alone is sent SIGTERM (npm exits and passes nothing on)", async () => {
    const { npm, childPid } = await underNpm(true);
    expect(alive(childPid)).toBe(true);
    npm.kill("SIGTERM");
    await expect.poll(() => alive(childPid), { timeout: 10_000, interval: 50 }).toBe(false);
  });

  it("started any other way (no npm), it outlives its parent", async () => {
    const { npm, childPid, lines } = await underNpm(false);
    npm.kill("SIGTERM");
    // The child says so once its watch has looked since the parent went.
    await expect.poll(() => lines.some((l) => l.includes(`"outlived":${childPid}`)), { timeout: 10_000, interval: 50 }).toBe(true);
    expect(alive(childPid)).toBe(true);
    process.kill(childPid, "SIGTERM");
    await expect.poll(() => alive(childPid), { timeout: 10_000, interval: 50 }).toBe(false);
  });
});
