import { and, asc, eq, or } from "drizzle-orm";
import { z } from "zod";
import type { AuditActor } from "../../lib/audit";
import { AppError } from "../../lib/errors";
import type { Db, Executor } from "../client";
import { savedQueries, users } from "../schema";
import { recordAudit } from "./audit-log";
import type { BuiltInQuery } from "../../lib/query-filters";

/**
 * Saved queries over the failure history (`failures`) or the audit log (`audit`): a name and the URL
 * query string of a view. Built-in queries are shipped in code by each page (never deletable); people
 * save their own, private or shared with everyone who can read the page; only the owner deletes one.
 * Creating and deleting are recorded in the audit log in the same transaction.
 */

export type SavedQueryScope = "failures" | "audit";


export interface SavedQueryView {
  id: string;
  name: string;
  /** URL query string without `?`. */
  query: string;
  builtIn: boolean;
  shared: boolean;
  /** The current user's own query (they may delete it). */
  mine: boolean;
  ownerName: string | null;
  needs?: string;
  description?: string;
}

export const savedQueryInputSchema = z.object({
  name: z.string().trim().min(1, "give the query a name").max(80, "must be at most 80 characters"),
  query: z.string().trim().max(2000, "must be at most 2000 characters"),
  shared: z.boolean().default(false),
});
export type SavedQueryInput = z.input<typeof savedQueryInputSchema>;

/** Built-ins first, then the user's own and the shared ones, by name. */
export async function listSavedQueries(db: Executor, params: { scope: SavedQueryScope; userId: string; builtIns?: readonly BuiltInQuery[] }): Promise<SavedQueryView[]> {
  const rows = await db
    .select({ id: savedQueries.id, name: savedQueries.name, query: savedQueries.query, ownerId: savedQueries.ownerId, shared: savedQueries.shared, ownerName: users.name })
    .from(savedQueries)
    .leftJoin(users, eq(users.id, savedQueries.ownerId))
    .where(and(eq(savedQueries.scope, params.scope), or(eq(savedQueries.ownerId, params.userId), eq(savedQueries.shared, true))))
    .orderBy(asc(savedQueries.name), asc(savedQueries.id));
  return [
    ...(params.builtIns ?? []).map((b) => ({ ...b, builtIn: true, shared: true, mine: false, ownerName: null })),
    ...rows.map((r) => ({ id: r.id, name: r.name, query: r.query, builtIn: false, shared: r.shared, mine: r.ownerId === params.userId, ownerName: r.ownerName })),
  ];
}

/** Saves a view for its owner (audited). `query` must already be validated and normalised by the caller's filter schema. */
export async function createSavedQuery(db: Db, actor: AuditActor, params: { scope: SavedQueryScope; userId: string } & SavedQueryInput): Promise<SavedQueryView> {
  const input = savedQueryInputSchema.parse(params);
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(savedQueries).values({ scope: params.scope, name: input.name, query: input.query, ownerId: params.userId, shared: input.shared }).returning();
    await recordAudit(tx, actor, {
      action: "saved_query.create",
      summary: `Saved the ${params.scope === "failures" ? "failure history" : "audit log"} query "${row.name}"${row.shared ? " (shared)" : ""}.`,
      target: { type: "saved_query", id: row.id },
      after: { scope: row.scope, name: row.name, query: row.query, shared: row.shared },
    });
    return { id: row.id, name: row.name, query: row.query, builtIn: false, shared: row.shared, mine: true, ownerName: actor.name };
  });
}

/** Deletes one of the user's own saved queries (audited); built-ins and others' queries are refused. */
export async function deleteSavedQuery(db: Db, actor: AuditActor, params: { scope: SavedQueryScope; userId: string; id: string }): Promise<void> {
  if (!z.guid().safeParse(params.id).success) throw new AppError("bad_request", { userMessage: "Built-in queries are part of Faultline and cannot be deleted." });
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(savedQueries).where(and(eq(savedQueries.id, params.id), eq(savedQueries.scope, params.scope))).for("update");
    if (!row) throw new AppError("not_found", { userMessage: "This saved query does not exist (any more): reload the page." });
    if (row.ownerId !== params.userId) throw new AppError("forbidden", { userMessage: `"${row.name}" belongs to someone else: only its owner can delete it.` });
    await tx.delete(savedQueries).where(eq(savedQueries.id, row.id));
    await recordAudit(tx, actor, {
      action: "saved_query.delete",
      summary: `Deleted the saved query "${row.name}".`,
      target: { type: "saved_query", id: row.id },
      before: { scope: row.scope, name: row.name, query: row.query, shared: row.shared },
    });
  });
}
