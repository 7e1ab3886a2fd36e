import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRetryAfter } from "./http";
import { runTool } from "./index";
import { freeLoopbackPort } from "../net";
import type { ToolContext, ToolResult } from "./result";

let server: http.Server;
let base: string;
let closedPortUrl: string;

/** A real loopback server with one route per behaviour under test. */
function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/json":
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ status: "ok", method: req.method, idempotencyKey: req.headers["idempotency-key"] ?? null, contentType: req.headers["content-type"] ?? null, body }));
        return;
      case "/text":
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("ready\n");
        return;
      case "/created":
        res.writeHead(201, { "content-type": "text/plain" });
        res.end("made");
        return;
      case "/limited":
        res.writeHead(429, { "retry-after": url.searchParams.get("after") ?? "3" });
        res.end("slow down");
        return;
      case "/error":
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`database is down\n${"detail ".repeat(1000)}`);
        return;
      case "/huge": {
        // chunked, no content-length: the cap must be enforced while streaming
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = "z".repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 32 && res.write(chunk)) sent++;
          if (sent >= 32) res.end();
          else res.once("drain", pump);
        };
        res.on("error", () => {});
        pump();
        return;
      }
      case "/huge-declared":
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(5 * 1024 * 1024) });
        res.write("a");
        return; // never finishes: the client must give up on the declared length alone
      case "/slow":
        setTimeout(() => res.end("late"), 3_000).unref();
        return;
      case "/reset":
        req.socket.destroy();
        return;
      default:
        res.writeHead(404);
        res.end("no such route");
    }
  });
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closedPortUrl = `http://127.0.0.1:${await freeLoopbackPort()}/health`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function ctx(over: Partial<ToolContext> = {}): ToolContext {
  return { workspace: "/nonexistent", allowedBinaries: [], signal: new AbortController().signal, timeoutMs: 5_000, idempotencyKey: "m1/a1/s2/1", ...over };
}
const request = (args: Record<string, unknown>, c: ToolContext = ctx()) => runTool("http", args, c);

function expectFailure(r: ToolResult) {
  if (r.ok) throw new Error(`expected a failure, got ok: ${JSON.stringify(r.data)}`);
  return r;
}

describe("http tool: success", () => {
  it("GETs JSON and returns status, headers, body, parsed json and duration; sends the Idempotency-Key", async () => {
    const r = await request({ url: `${base}/json` });
    expect(r.ok).toBe(true);
    expect(r.data).toMatchObject({ status: 200, json: { status: "ok", method: "GET", idempotencyKey: "m1/a1/s2/1" } });
    expect((r.data?.headers as Record<string, string>)["content-type"]).toContain("application/json");
    expect(JSON.parse(String(r.data?.body)).status).toBe("ok");
    expect(r.data?.durationMs).toEqual(expect.any(Number));
  });

  it("POSTs an object body as JSON", async () => {
    const r = await request({ url: `${base}/json`, method: "POST", body: { name: "build", n: 1 } });
    expect(r.data?.json).toMatchObject({ method: "POST", contentType: "application/json", body: '{"name":"build","n":1}' });
  });

  it("returns json: null for a non-JSON content type", async () => {
    const r = await request({ url: `${base}/text` });
    expect(r).toMatchObject({ ok: true, data: { status: 200, body: "ready\n", json: null } });
  });

  it("accepts a non-2xx status listed in expectStatus, and rejects a 2xx that is not listed", async () => {
    expect((await request({ url: `${base}/created`, expectStatus: [201] })).ok).toBe(true);
    const r = expectFailure(await request({ url: `${base}/created`, expectStatus: [200] }));
    expect(r.error).toMatchObject({ code: "HTTP_ERROR", status: 201 });
    expect(r.error.message).toContain("expected one of 200");
  });
});

describe("http tool: error responses", () => {
  it("turns 429 into RATE_LIMITED with retryAfterMs from delta-seconds", async () => {
    const r = expectFailure(await request({ url: `${base}/limited?after=3` }));
    expect(r.error).toMatchObject({ code: "RATE_LIMITED", status: 429, retryAfterMs: 3000 });
    expect(r.error.message).toContain(`GET ${base}/limited?after=3 was rate limited`);
    expect(r.data).toMatchObject({ status: 429, body: "slow down" });
  });

  it("turns 429 with an HTTP-date Retry-After into retryAfterMs", async () => {
    const when = new Date(Date.now() + 10_000).toUTCString();
    const r = expectFailure(await request({ url: `${base}/limited?after=${encodeURIComponent(when)}` }));
    expect(r.error.retryAfterMs).toBeGreaterThan(8_000);
    expect(r.error.retryAfterMs).toBeLessThanOrEqual(10_000);
  });

  it("turns 500 into HTTP_ERROR naming the URL, with an excerpt and the first 2 KiB of the body", async () => {
    const r = expectFailure(await request({ url: `${base}/error`, method: "DELETE" }));
    expect(r.error).toMatchObject({ code: "HTTP_ERROR", status: 500 });
    expect(r.error.message).toMatch(new RegExp(`^DELETE ${base}/error returned 500 Internal Server Error \\(expected a 2xx status\\): "database is down detail`));
    expect(r.error.message.length).toBeLessThan(400);
    const detailsBody = String(r.error.details?.body);
    expect(detailsBody.startsWith("database is down")).toBe(true);
    expect(detailsBody).toHaveLength(2048);
    expect(r.data).toMatchObject({ status: 500 });
  });
});

describe("http tool: limits", () => {
  it("stops reading a streamed body over maxResponseBytes", async () => {
    const r = expectFailure(await request({ url: `${base}/huge`, maxResponseBytes: 100_000 }));
    expect(r.error).toMatchObject({ code: "OUTPUT_TOO_LARGE", status: 200 });
    expect(r.error.message).toContain("larger than 100000 bytes");
    expect(String(r.data?.body)).toHaveLength(100_000);
  });

  it("refuses a body whose declared Content-Length is over the cap without waiting for it", async () => {
    const started = Date.now();
    const r = expectFailure(await request({ url: `${base}/huge-declared`, maxResponseBytes: 1_000 }));
    expect(r.error.code).toBe("OUTPUT_TOO_LARGE");
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("times out a slow server after timeoutMs", async () => {
    const started = Date.now();
    const r = expectFailure(await request({ url: `${base}/slow` }, ctx({ timeoutMs: 200 })));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(r.error.code).toBe("TIMEOUT");
    expect(r.error.message).toBe(`GET ${base}/slow did not complete within 200 ms. The server may be slow or unreachable; raise the step's timeoutMs or check the service.`);
  });

  it("stops when the step is cancelled through ctx.signal", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("lease lost")), 100);
    const r = expectFailure(await request({ url: `${base}/slow` }, ctx({ signal: ac.signal })));
    expect(r.error.code).toBe("TIMEOUT");
    expect(r.error.message).toContain("cancelled (lease lost)");
  });
});

describe("http tool: network failures", () => {
  it("reports a closed port as CONNECTION_REFUSED naming the URL", async () => {
    const r = expectFailure(await request({ url: closedPortUrl }));
    expect(r.error).toMatchObject({ code: "CONNECTION_REFUSED", errno: "ECONNREFUSED" });
    expect(r.error.message).toContain(`GET ${closedPortUrl} failed: connection refused`);
  });

  it("reports a connection closed by the server as NETWORK_ERROR", async () => {
    const r = expectFailure(await request({ url: `${base}/reset` }));
    expect(r.error.code).toBe("NETWORK_ERROR");
    expect(r.error.errno).toEqual(expect.any(String));
    expect(r.error.message).toContain(`${base}/reset failed:`);
  });

  it("reports an unresolvable host as NETWORK_ERROR with its errno", async () => {
    const r = expectFailure(await request({ url: "http://faultline-test.invalid/" }, ctx({ timeoutMs: 1_500 })));
    expect(["NETWORK_ERROR", "TIMEOUT"]).toContain(r.error.code); // TIMEOUT only where DNS itself hangs
    if (r.error.code === "NETWORK_ERROR") expect(r.error.errno).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
  });
});

describe("http tool: arguments", () => {
  it("rejects a non-http URL and a body on GET as INVALID_ARGS naming the fields", async () => {
    const r1 = expectFailure(await request({ url: "ftp://example.com/x" }));
    expect(r1.error.code).toBe("INVALID_ARGS");
    expect(r1.error.message).toContain("url: must be an absolute http:// or https:// URL");
    const r2 = expectFailure(await request({ url: `${base}/json`, body: "x" }));
    expect(r2.error.message).toContain("body: GET and HEAD requests cannot have a body");
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates, and ignores garbage", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
