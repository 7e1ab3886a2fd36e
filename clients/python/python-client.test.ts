import { execFile } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Principal } from "../../lib/auth/roles";
import { useRunsTestServer } from "../../server/fixtures/runs-server";

/**
 * The Python client (issue 15) against the real runs API over HTTP on 127.0.0.1 (route handlers on a
 * real PostgreSQL with a real worker; server/fixtures/runs-server.ts): `python3 clients/python/test_client.py`
 * and the example agent run against it.
 */

const operator: Principal = { id: "0b5a1d8e-0000-4000-8000-0000000000a1", name: "Pia Python", email: "pia@x", roles: ["operator"] };
const ROOT = path.resolve(import.meta.dirname, "../..");
const api = useRunsTestServer({ operator, token: "flt_python_client_test", workspacesDir: "/tmp/fl-python-client" });

/** Runs a Python script against the test server (asynchronously: the server answers in this process). */
function python(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("python3", [path.join(ROOT, script)], { cwd: ROOT, timeout: 120_000, env: { ...process.env, FAULTLINE_URL: api.baseUrl, FAULTLINE_TOKEN: api.token, PYTHONUNBUFFERED: "1" } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("the Python client against the runs API", () => {
  it("passes its unittest suite (propose, wait, report, finish, the decorator, errors)", async () => {
    const r = await python("clients/python/test_client.py");
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^OK$/m);
  }, 150_000);

  it("runs the example agent: echo runs, rm -rf / is rejected with its reason, the run ends SUCCESS", async () => {
    const r = await python("examples/agents/python_agent.py");
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^echo approved and ran: hello from python$/m);
    expect(r.stdout).toMatch(/^rm -rf \/ rejected: AUTHORITY_REJECTION by /m);
    expect(r.stdout).toMatch(/^final status: SUCCESS$/m);
  }, 150_000);
});
