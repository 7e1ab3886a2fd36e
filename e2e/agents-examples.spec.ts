import { execFile } from "node:child_process";
import path from "node:path";
import { test, expect } from "./fixtures";

/**
 * The example agents (issue 15) run against the product as it runs (web and worker processes on a real
 * PostgreSQL, as `npm start` brings them up), with an API token an operator makes; then the console shows
 * what they did: their proposals, approved and rejected, on the run's page.
 */

const ROOT = path.resolve(import.meta.dirname, "..");

function runExample(cmd: string, args: string[], token: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: ROOT, timeout: 120_000, env: { ...process.env, FAULTLINE_URL: process.env.E2E_BASE_URL, FAULTLINE_TOKEN: token, PYTHONUNBUFFERED: "1" } }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

for (const example of [
  { name: "TypeScript", cmd: process.execPath, args: ["--import", "tsx", "examples/agents/typescript_agent.ts"], hello: "hello from typescript" },
  { name: "Python", cmd: "python3", args: ["examples/agents/python_agent.py"], hello: "hello from python" },
]) {
  test(`the ${example.name} example agent runs green against the running product, and its run shows on the console`, async ({ operatorPage: page }) => {
    test.setTimeout(150_000);
    const made = await page.request.post("/api/v1/tokens", { data: { name: `${example.name} example ${Date.now()}`, expiresInDays: 1 } });
    expect(made.status()).toBe(201);
    const { token } = (await made.json()) as { token: string };

    const r = await runExample(example.cmd, example.args, token);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain(`echo approved and ran: ${example.hello}`);
    expect(r.stdout).toMatch(/^rm -rf \/ rejected: AUTHORITY_REJECTION by /m);
    expect(r.stdout).toMatch(/^final status: SUCCESS$/m);

    const runId = /^run ([0-9a-f-]{36}) created/m.exec(r.stdout)![1];
    await page.goto(`/missions/${runId}`);
    await expect(page.getByTestId("final-status")).toHaveAttribute("data-value", "SUCCESS");
    const proposals = (await (await page.request.get(`/api/v1/missions/${runId}/proposals`)).json()).proposals as Array<{ status: string; action: { tool: string; args: { command?: string } } }>;
    expect(proposals.filter((p) => p.action.tool === "shell").map((p) => `${p.action.args.command} ${p.status}`).sort()).toEqual(["echo approved", "rm rejected"]);
  });
}
