import http from "node:http";
import { REMOTE_ADDR_HEADER } from "../lib/audit";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { getDbHandle } from "../db/client";
import { env } from "../lib/env";
import { attachRealtime } from "./realtime";

/**
 * The web process: one http.Server shared by the Next.js handler (pages, server actions, REST API)
 * and socket.io (live events). Needs DATABASE_URL and NEXTAUTH_SECRET; run `npx next build` first.
 *   node --import tsx server/web.ts
 */

/** How long the web process keeps an idle keep-alive connection open: above the usual 60 s of a load balancer. */
export const KEEP_ALIVE_MS = 65_000;

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

export async function startWeb(opts: { dir?: string; log?: (msg: string) => void } = {}): Promise<WebServer> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const e = env();
  const databaseUrl = e.DATABASE_URL;
  const secret = e.NEXTAUTH_SECRET;
  if (!databaseUrl) throw new Error("DATABASE_URL is not set: the web process needs the PostgreSQL URL (npm start sets it).");
  if (!secret) throw new Error("NEXTAUTH_SECRET is not set: the web process needs it to sign sessions (at least 16 characters; npm start generates one).");
  process.env.FAULTLINE_PROCESS ??= "web";

  const dir = opts.dir ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const app = next({ dev: false, dir, hostname: e.HOST, port: e.PORT });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer((req, res) => {
    // The peer's address, for the audit log's "from where": set here (never trusted from the client).
    req.headers[REMOTE_ADDR_HEADER] = req.socket.remoteAddress ?? "";
    handle(req, res).catch((err: unknown) => {
      console.error("[web] request failed", err);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("content-type", "text/plain; charset=utf-8");
      }
      res.end("The server could not complete this request because of an internal error. It has been logged.");
    });
  });
  // Idle keep-alive connections live longer than any client or load balancer keeps one (Node's default is
  // 5 s): a client reusing a connection the server is closing at that instant gets ECONNRESET, not an
  // answer (seen: a script polling the events API every few seconds). Behind a load balancer, its idle
  // timeout must stay below this one (docs/deploy.md).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  const secureCookie = (process.env.NEXTAUTH_URL ?? "").startsWith("https://");
  const realtime = attachRealtime(server, { databaseUrl, secret, secureCookie, operatorDisconnectMs: e.FAULTLINE_OPERATOR_DISCONNECT_MS, log: (m) => log(`[realtime] ${m}`) });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(e.PORT, e.HOST, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : e.PORT;
  const host = e.HOST === "0.0.0.0" || e.HOST === "::" ? "localhost" : e.HOST;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url,
    close: () =>
      (closing ??= (async () => {
        // io.close() also closes the http server, which waits for open keep-alive connections:
        // let idle ones go now and cut the rest after a short grace period.
        const done = realtime.close();
        server.closeIdleConnections();
        const cut = setTimeout(() => server.closeAllConnections(), 2_000);
        cut.unref();
        await done;
        clearTimeout(cut);
        await app.close?.().catch(() => {});
        await getDbHandle().close().catch(() => {});
      })()),
  };
}

/**
 * Runs the web process until SIGTERM/SIGINT, then closes socket.io, the http server, Next.js and the
 * pool. Used by `faultline web` and by `node --import tsx server/web.ts`.
 */
export async function runWebProcess(): Promise<void> {
  const web = await startWeb();
  console.log(`Faultline web listening on ${web.url}`);
  await new Promise<void>((resolve, reject) => {
    const stop = (signal: string) => {
      console.log(`[web] ${signal}: shutting down`);
      const force = setTimeout(() => {
        console.error("[web] shutdown took over 10 s; exiting");
        process.exit(1);
      }, 10_000);
      force.unref();
      web.close().then(resolve, reject);
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  runWebProcess().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`Faultline web failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
