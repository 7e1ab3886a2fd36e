/**
 * A small agent governed by Faultline through the TypeScript client (@faultline/client, packages/client).
 *
 * It creates a run that may only run `echo` and `ls`, runs `echo` for real through a governed shell
 * function, tries `rm -rf /` through the same function (Faultline rejects it, so it never runs),
 * finishes, and prints the run's final status. No model needed: the same `governed` wrapper is what the
 * adapters put in front of the OpenAI Agents SDK, the Vercel AI SDK and LangGraph JS tools.
 *
 *   FAULTLINE_URL=http://localhost:3000 FAULTLINE_TOKEN=flt_… node --import tsx examples/agents/typescript_agent.ts
 *
 * Exit code 0 when the run behaves as expected: echo approved and run, rm rejected, run SUCCESS.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ActionNotApproved, createFaultline, describeNotApproved } from "@faultline/client";

const token = process.env.FAULTLINE_TOKEN;
if (!token) {
  console.error("Set FAULTLINE_TOKEN to an API token (console → Account → API tokens).");
  process.exit(2);
}
const fl = createFaultline({ baseUrl: process.env.FAULTLINE_URL ?? "http://localhost:3000", token });

const created = await fl.runs.create({ name: "TypeScript agent", objective: "Say hello, and do not wipe the disk", allowedBinaries: ["echo", "ls"], via: "typescript-example" });
console.log(`run ${created.id} created (${created.runState})`);
const run = fl.run(created.id);

/** Runs a binary for real, only once Faultline approved it (with the args it approved). */
const shell = run.governed("shell", async ({ command, args }: { command: string; args: string[] }) => {
  const { stdout } = await promisify(execFile)(command, args);
  return { stdout };
});

const out = await shell({ command: "echo", args: ["hello from typescript"] });
console.log(`echo approved and ran: ${out.stdout.trim()}`);

let rejected = false;
try {
  await shell({ command: "rm", args: ["-rf", "/"] });
  console.log("rm -rf / was approved: this must not happen");
} catch (e) {
  if (!(e instanceof ActionNotApproved)) throw e;
  rejected = true;
  console.log(`rm -rf / rejected: ${e.decision?.failureReason} by ${e.decision?.authority}: ${e.decision?.reason}`);
  console.log(`  the agent reads: ${describeNotApproved(e)}`);
}

const finish = await run.finish("Said hello; refused to wipe the disk.");
console.log(`finish ${finish.finishes[0]?.status}`);
const final = await run.ended(60_000);
console.log(`final status: ${final.finalStatus}`);
process.exit(rejected && final.finalStatus === "SUCCESS" ? 0 : 1);
