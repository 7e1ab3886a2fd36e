import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { TestDatabase } from "../db/test-helpers";
import { ensureActor } from "../db/queries/users";
import { personActor } from "../lib/audit";
import type { Principal } from "../lib/auth/roles";
import { Worker } from "./orchestrator/worker";
import { signedInAs, useRouteTestDatabase } from "./route-test-helpers";

/**
 * The runs API over real HTTP on 127.0.0.1, for the clients' tests (issue 15): the route handlers on a
 * real PostgreSQL with a real worker, behind a small HTTP server (a client in another language, or a
 * client that must speak HTTP, cannot call route handlers in-process). Only the session lookup is
 * replaced, as in every route test: the bearer token is the operator, any other token (or none) is
 * signed out.
 */

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routes: Array<{ method: string; pattern: RegExp; handler: Handler }> = [];
const add = (method: string, pattern: RegExp, handler: unknown) => routes.push({ method, pattern, handler: handler as Handler });
const runs = await import("../app/api/v1/runs/route");
const run = await import("../app/api/v1/runs/[id]/route");
const proposals = await import("../app/api/v1/runs/[id]/proposals/route");
const results = await import("../app/api/v1/runs/[id]/results/route");
const finish = await import("../app/api/v1/runs/[id]/finish/route");
const heartbeat = await import("../app/api/v1/runs/[id]/heartbeat/route");
const proposal = await import("../app/api/v1/proposals/[id]/route");
const decision = await import("../app/api/v1/proposals/[id]/decision/route");
const missionProposals = await import("../app/api/v1/missions/[id]/proposals/route");
const missionEvents = await import("../app/api/v1/missions/[id]/events/route");
add("POST", /^\/api\/v1\/runs$/, runs.POST);
add("GET", /^\/api\/v1\/runs\/(?<id>[^/]+)$/, run.GET);
add("POST", /^\/api\/v1\/runs\/(?<id>[^/]+)\/proposals$/, proposals.POST);
add("POST", /^\/api\/v1\/runs\/(?<id>[^/]+)\/results$/, results.POST);
add("POST", /^\/api\/v1\/runs\/(?<id>[^/]+)\/finish$/, finish.POST);
add("POST", /^\/api\/v1\/runs\/(?<id>[^/]+)\/heartbeat$/, heartbeat.POST);
add("GET", /^\/api\/v1\/proposals\/(?<id>[^/]+)$/, proposal.GET);
add("POST", /^\/api\/v1\/proposals\/(?<id>[^/]+)\/decision$/, decision.POST);
add("GET", /^\/api\/v1\/missions\/(?<id>[^/]+)\/proposals$/, missionProposals.GET);
add("GET", /^\/api\/v1\/missions\/(?<id>[^/]+)\/events$/, missionEvents.GET);

export interface RunsTestServer {
  readonly baseUrl: string;
  readonly token: string;
  readonly tdb: TestDatabase;
}

/** Starts the database, a worker and the HTTP server for the test file; stops them after it. */
export function useRunsTestServer(opts: { operator: Principal; token: string; workspacesDir: string }): RunsTestServer {
  const state = { baseUrl: "", token: opts.token, tdb: undefined as unknown as TestDatabase };
  let worker: Worker;
  let server: http.Server;
  useRouteTestDatabase(async (t) => {
    state.tdb = t;
    await ensureActor(t.db, { id: personActor(opts.operator, "api", null).id, kind: "user", displayName: opts.operator.name });
  });
  beforeAll(async () => {
    worker = new Worker({ handle: state.tdb, databaseUrl: state.tdb.url, workspacesDir: opts.workspacesDir, leaseMs: 3000, heartbeatMs: 500, pollMs: 100, concurrency: 4, log: () => {} });
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
        signedInAs(req.headers.authorization === `Bearer ${opts.token}` ? opts.operator : null);
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
    state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await worker?.stop(2000);
  });
  return state;
}
