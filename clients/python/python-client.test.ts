import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../db/test-helpers";
import { ensureActor } from "../../db/queries/users";
import { personActor } from "../../lib/audit";
import type { Principal } from "../../lib/auth/roles";
import { Worker } from "../../server/orchestrator/worker";
import { signedInAs, useRouteTestDatabase } from "../../server/route-test-helpers";

/**
 * The Python client (issue 15) against the real runs API: the route handlers on a real PostgreSQL with
 * a real worker, behind a small HTTP server on 127.0.0.1 (Python cannot call route handlers in-process).
 * Only the session lookup is replaced, as in every route test: the bearer token below is the operator,
 * any other token (or none) is signed out. Then `python3 clients/python/test_client.py` and the example
 * agent run against it.
 */

const routes: Array<{ method: string; pattern: RegExp; handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> }> = [];
const add = (method: string, pattern: RegExp, handler: unknown) => routes.push({ method, pattern, handler: handler as (typeof routes)[number]["handler"] });
const runs = await import("../../app/api/v1/runs/route");
const run = await import("../../app/api/v1/runs/[id]/route");
const proposals = await import("../../app/api/v1/runs/[id]/proposals/route");
const results = await import("../../app/api/v1/runs/[id]/results/route");
const finish = await import("../../app/api/v1/runs/[id]/finish/route");
const heartbeat = await import("../../app/api/v1/runs/[id]/heartbeat/route");
const proposal = await import("../../app/api/v1/proposals/[id]/route");
const decision = await import("../../app/api/v1/proposals/[id]/decision/route");
add("POST", /^\/api\/v1\/runs$/, runs.POST);
add("GET", /^\/api\/v1\/runs\/(?<id>[^/]+)$/, run.GET);
add("POST", /^\/api\/v1\/runs\/(?<id>[^/]+)\/proposals$/, proposals.POST);
add("POST", /^\/api\/v1\/runs\/(?<id>[^/]+)\/results$/, results.POST);
add("POST", /^\/api\/v1\/runs\/(?<id>[^/]+)\/finish$/, finish.POST);
add("POST", /^\/api\/v1\/runs\/(?<id>[^/]+)\/heartbeat$/, heartbeat.POST);
add("GET", /^\/api\/v1\/proposals\/(?<id>[^/]+)$/, proposal.GET);
add("POST", /^\/api\/v1\/proposals\/(?<id>[^/]+)\/decision$/, decision.POST);

const operator: Principal = { id: "0b5a1d8e-0000-4000-8000-0000000000a1", name: "Pia Python", email: "pia@x", roles: ["operator"] };
const TOKEN = "flt_python_client_test";
const ROOT = path.resolve(import.meta.dirname, "../..");

let tdb: TestDatabase;
let worker: Worker;
let server: http.Server;
let baseUrl = "";
useRouteTestDatabase(async (t) => {
  tdb = t;
  await ensureActor(t.db, { id: personActor(operator, "api", null).id, kind: "user", displayName: operator.name });
});

beforeAll(async () => {
  worker = new Worker({ handle: tdb, databaseUrl: tdb.url, workspacesDir: "/tmp/fl-python-client", leaseMs: 3000, heartbeatMs: 500, pollMs: 100, concurrency: 4, log: () => {} });
  await worker.start();
  server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url ?? "/", "http://localhost");
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const route = routes.find((r) => r.method === req.method && r.pattern.test(u.pathname));
      if (!route) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "not_found", message: `No route ${req.method} ${u.pathname} in this test server` } }));
        return;
      }
      // The bearer token is the session: the operator for the test token, signed out otherwise.
      signedInAs(req.headers.authorization === `Bearer ${TOKEN}` ? operator : null);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const request = new Request(u.toString(), { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const answer = await route.handler(request, { params: Promise.resolve({ ...(u.pathname.match(route.pattern)?.groups ?? {}) }) });
      res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (e) {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "internal", message: String(e) } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await worker?.stop(2000);
});

/** Runs a Python script against the test server (asynchronously: the server answers in this process). */
function python(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("python3", [path.join(ROOT, script)], { cwd: ROOT, timeout: 120_000, env: { ...process.env, FAULTLINE_URL: baseUrl, FAULTLINE_TOKEN: TOKEN, PYTHONUNBUFFERED: "1" } }, (err, stdout, stderr) => {
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
