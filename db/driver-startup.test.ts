import net from "node:net";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./client";
import { createTestDatabase, type TestDatabase } from "./test-helpers";

/**
 * A connection whose backend is terminated while postgres.js starts it up (its array-types query on the
 * wire) must reconnect and answer the query that was waiting, without ending the process. Unpatched
 * postgres.js 3.4.9 leaves that internal query's promise unhandled (porsager/postgres#1192, #1205) and
 * carries its error into the new connection (#1223): a worker died of it in the chaos suite (scenario i,
 * pg_terminate_backend while missions run) with "PostgresError: terminating connection due to
 * administrator command" as an unhandled rejection. patches/postgres+3.4.9.patch fixes both.
 *
 * A loopback TCP proxy answers the first array-types query it sees with the ErrorResponse a terminated
 * backend sends (FATAL 57P01) and closes the connection, as pg_terminate_backend does at that instant.
 */
class StartupCutter {
  cuts = 0;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.pipe(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return (this.server.address() as net.AddressInfo).port;
  }

  private pipe(client: net.Socket) {
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    client.on("data", (d) => {
      if (this.cuts === 0 && d.toString("latin1").includes("typarray")) {
        this.cuts++;
        client.end(terminated(), () => client.destroy());
        upstream.destroy();
        return;
      }
      upstream.write(d);
    });
    upstream.on("data", (d) => client.write(d));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  }

  async close() {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

/** The ErrorResponse message PostgreSQL sends a backend that pg_terminate_backend ends. */
function terminated(): Buffer {
  const fields = [
    ["S", "FATAL"],
    ["V", "FATAL"],
    ["C", "57P01"],
    ["M", "terminating connection due to administrator command"],
  ];
  const body = Buffer.concat([...fields.map(([k, v]) => Buffer.from(`${k}${v}\0`, "utf8")), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write("E", 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

let tdb: TestDatabase | null = null;
let proxy: StartupCutter | null = null;
let handle: DbHandle | null = null;
afterEach(async () => {
  await handle?.close();
  await proxy?.close();
  await tdb?.drop();
});

describe("a connection terminated while the driver starts it up", () => {
  it("reconnects and answers the waiting query; nothing is left to reject unhandled", async () => {
    tdb = await createTestDatabase();
    const url = new URL(tdb.url);
    proxy = new StartupCutter({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = "127.0.0.1";
    url.port = String(await proxy.listen());
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      handle = createDb(url.toString(), { max: 1, applicationName: "faultline-test" });
      const rows = (await handle.db.execute(sql`select 41 + 1 as answer, array['a', 'b']::text[] as letters`)) as unknown as Array<{ answer: number; letters: string[] }>;
      expect(proxy.cuts).toBe(1);
      // The reconnected connection fetched the array types again: text[] comes back as an array.
      expect(rows[0]).toEqual({ answer: 42, letters: ["a", "b"] });
      // An unhandled rejection is reported after the microtasks of the turn that made it: let two turns pass.
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
