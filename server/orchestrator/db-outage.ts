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

/**
 * What an operator reads of a connection error in a pause's message: the server's own words when it sent
 * some (too many clients, terminating connection, shutting down), else what happened to the connection in
 * words, with the driver's code and the server's address.
 */
export function describeConnectionError(e: unknown): string {
  const chain: Array<{ code?: string; message?: string; cause?: unknown }> = [];
  for (let cur = e as (typeof chain)[number] | undefined, depth = 0; cur && depth < 4; cur = cur.cause as typeof cur, depth++) chain.push(cur);
  const inner = chain.find((c) => c.code && CONNECTION_CODES.has(c.code)) ?? chain.find((c) => isConnectionError({ message: c.message })) ?? chain.at(-1);
  const first = (inner?.message ?? String(e)).split("\n")[0];
  const where = /(\S+:\d+)\s*$/.exec(first)?.[1];
  const at = where ? ` at ${where}` : "";
  switch (inner?.code) {
    case "CONNECTION_CLOSED":
    case "CONNECTION_DESTROYED":
    case "ECONNRESET":
    case "EPIPE":
      return `the connection to PostgreSQL${at} was cut (${inner.code})`;
    case "CONNECTION_ENDED":
      return `the connection pool to PostgreSQL${at} was closed (${inner.code})`;
    case "CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return `connecting to PostgreSQL${at} timed out (${inner.code})`;
    case "ECONNREFUSED":
      return `PostgreSQL${at} refused the connection: the server is down or not listening (${inner.code})`;
    default:
      return first;
  }
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
