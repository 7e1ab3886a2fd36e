import { and, eq, gt, ne, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { operatorPresence } from "../schema";

/**
 * Operator presence shared by every web process (issue 19): one row per web process and user, with how
 * many sockets of that user the process holds; `seen_at` is refreshed while the process lives.
 */

/** Records how many of a user's sockets this web process holds (0 removes the row). */
export async function recordSockets(db: Executor, p: { webId: string; userId: string; sockets: number }): Promise<void> {
  if (p.sockets <= 0) {
    await db.delete(operatorPresence).where(and(eq(operatorPresence.webId, p.webId), eq(operatorPresence.userId, p.userId)));
    return;
  }
  await db
    .insert(operatorPresence)
    .values({ webId: p.webId, userId: p.userId, sockets: p.sockets })
    .onConflictDoUpdate({ target: [operatorPresence.webId, operatorPresence.userId], set: { sockets: p.sockets, seenAt: sql`now()` } });
}

/** This web process is alive: its rows stay fresh. */
export async function refreshPresence(db: Executor, webId: string): Promise<void> {
  await db.update(operatorPresence).set({ seenAt: sql`now()` }).where(eq(operatorPresence.webId, webId));
}

/** This web process leaves (a clean stop): its sockets no longer count. */
export async function leavePresence(db: Executor, webId: string): Promise<void> {
  await db.delete(operatorPresence).where(eq(operatorPresence.webId, webId));
}

/** Whether another live web process (seen within `staleMs`) holds a socket of this user. */
export async function connectedElsewhere(db: Executor, p: { webId: string; userId: string; staleMs: number }): Promise<boolean> {
  const rows = await db
    .select({ webId: operatorPresence.webId })
    .from(operatorPresence)
    .where(and(eq(operatorPresence.userId, p.userId), ne(operatorPresence.webId, p.webId), gt(operatorPresence.sockets, 0), gt(operatorPresence.seenAt, sql`now() - (${p.staleMs}::int * interval '1 millisecond')`)))
    .limit(1);
  return rows.length > 0;
}
