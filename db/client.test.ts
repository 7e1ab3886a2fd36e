import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createDb, withConnection, type DbHandle } from "./client";
import { createTestDatabase, type TestDatabase } from "./test-helpers";

let tdb: TestDatabase;
let victim: DbHandle;

beforeAll(async () => {
  tdb = await createTestDatabase();
  await tdb.db.execute(sql`create table tx_probe (x int)`);
  // One connection: the one a dead transaction held is the one the next transaction gets.
  victim = createDb(tdb.url, { max: 1, applicationName: "faultline-victim" });
});
afterAll(async () => {
  await victim?.close();
  await tdb?.drop();
});

describe("a transaction whose connection dies", () => {
  // Found by the chaos suite (scenario i): postgres.js went on sending a dead transaction's queries, and its
  // commit, on the connection after it reconnected — into the next transaction there, which then committed
  // early or rolled back while its caller was told it committed. patches/postgres+3.4.9.patch fails them.
  it("fails every later query of it, and never writes into the next transaction on that connection", async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let begun!: () => void;
    const inside = new Promise<void>((r) => (begun = r));
    let reportLate!: (outcome: string) => void;
    const lateWrite = new Promise<string>((r) => (reportLate = r));
    const dead = victim.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        begun();
        await released;
        reportLate(
          await tx.execute(sql`insert into tx_probe values (1)`).then(
            () => "ran",
            (e: Error & { code?: string; cause?: { code?: string } }) => e.cause?.code ?? e.code ?? e.message,
          ),
        );
      })
      .catch((e: Error) => e);
    // Once the transaction has begun (its connection reserved, idle in transaction), kill that backend.
    await inside;
    await withConnection(tdb.url, (admin) => admin`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'faultline-victim'`);
    expect(String(((await dead) as Error & { code?: string }).code)).toBe("CONNECTION_CLOSED");

    const next = victim.db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (2)`);
      release();
      const late = await lateWrite;
      await tx.execute(sql`insert into tx_probe values (3)`);
      return late;
    });
    expect(await next).toBe("CONNECTION_CLOSED");
    const rows = await tdb.db.execute<{ x: number }>(sql`select x from tx_probe order by x`);
    expect(rows.map((r) => r.x)).toEqual([2, 3]);
  });
});
