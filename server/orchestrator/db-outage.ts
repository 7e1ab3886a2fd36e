import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

// Node socket errors, PostgreSQL SQLSTATEs (admin shutdown, cannot connect now, connection exceptions, too many
// connections) and postgres.js's own codes for a connection that closed, ended or timed out while connecting.
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006", "53300"]);

/** True when an error means the database could not be reached (as opposed to a query being wrong). */
export function isConnectionError(e: unknown): boolean {
  for (let cur = e as { code?: string; message?: string; cause?: unknown } | undefined, depth = 0; cur && depth < 4; cur = cur.cause as typeof cur, depth++) {
    if (cur.code && CONNECTION_CODES.has(cur.code)) return true;
    if (/Connection terminated|connection timeout|terminating connection|Client has encountered a connection error|the database system is (starting up|shutting down)|timeout exceeded when trying to connect/i.test(cur.message ?? "")) return true;
  }
  return false;
}

/** Waits until the database answers again (or the signal aborts); returns how long it was down. */
export async function waitForDatabase(db: Db, since: number, signal: AbortSignal): Promise<number> {
  let delay = 250;
  while (!signal.aborted) {
    try {
      await db.execute(sql`select 1`);
      return Date.now() - since;
    } catch {
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 2000);
    }
  }
  throw signal.reason ?? new Error("stopped while waiting for the database");
}
