import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

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
