import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./client";
import { createTestDatabase, type TestDatabase } from "./test-helpers";
import { PgProxy } from "./test-pg-proxy";

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
let proxy: PgProxy | null = null;
let handle: DbHandle | null = null;
afterEach(async () => {
  await handle?.close();
  await proxy?.close();
  await tdb?.drop();
});

describe("a connection terminated while the driver starts it up", () => {
  it("reconnects and answers the waiting query; nothing is left to reject unhandled", async () => {
    tdb = await createTestDatabase();
    let cuts = 0;
    const started = await PgProxy.start(tdb.url, (conn) => ({
      fromClient: (d) => {
        if (cuts > 0 || !d.toString("latin1").includes("typarray")) return;
        cuts++;
        conn.client.end(terminated(), () => conn.client.destroy());
        conn.upstream.destroy();
        return false;
      },
    }));
    proxy = started.proxy;
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      handle = createDb(started.url, { max: 1, applicationName: "faultline-test" });
      const rows = (await handle.db.execute(sql`select 41 + 1 as answer, array['a', 'b']::text[] as letters`)) as unknown as Array<{ answer: number; letters: string[] }>;
      expect(cuts).toBe(1);
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
