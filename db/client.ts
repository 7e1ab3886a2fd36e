import pg from "pg";
import type { SQL } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import * as schema from "./schema";

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything queries run on: the pool-backed db or a transaction. */
export type Executor = Db | Tx;

export interface DbHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// Timestamps as ISO strings, bigint counts as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

export function createDb(url: string, opts: { max?: number; applicationName?: string } = {}): DbHandle {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, application_name: opts.applicationName ?? "faultline", idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (err) => console.error(`[db] idle connection error: ${err.message}`));
  // pg-pool listens for errors only while a client is idle: a checked-out client whose connection dies
  // (server restart, pg_terminate_backend) emits 'error' with no listener, which crashed the process.
  // Its holder's query still fails with the error. And drizzle's transaction() never releases its client
  // when BEGIN itself fails: a dead client still checked out a few seconds later is given back with its
  // error (so the pool discards it) instead of leaking a pool slot for good. (Found by the chaos suite.)
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_err, client) => checkedOut.delete(client));
  pool.on("connect", (client) => {
    client.on("error", (err) => {
      if (!checkedOut.has(client)) return; // idle: the pool's own listener handles it
      console.error(`[db] connection in use lost: ${err.message}`);
      setTimeout(() => {
        if (checkedOut.has(client)) client.release(err);
      }, 5000).unref();
    });
  });
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

const globalForDb = globalThis as unknown as { __faultlineDb?: DbHandle };

/** The process-wide database, from DATABASE_URL; one pool per process, also across hot reloads and bundles. */
export function getDbHandle(): DbHandle {
  if (!globalForDb.__faultlineDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Faultline with `npm start` (which sets it) or set it to a PostgreSQL URL.");
    globalForDb.__faultlineDb = createDb(url, { applicationName: `faultline-${process.env.FAULTLINE_PROCESS ?? "web"}` });
  }
  return globalForDb.__faultlineDb;
}

export function getDb(): Db {
  return getDbHandle().db;
}

/**
 * The rows of a raw SQL query (`sql\`…\``). Use this rather than reading the driver's result shape:
 * it stays the same whichever driver runs underneath.
 */
export async function queryRows<T = Record<string, unknown>>(ex: Executor, query: SQL): Promise<T[]> {
  const result = await ex.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}
