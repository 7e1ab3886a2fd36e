import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { AuditActor } from "../../lib/audit";
import { API_TOKEN_PREFIX } from "../../lib/auth/user-admin";
import { AppError } from "../../lib/errors";
import type { Executor } from "../client";
import { apiTokens, users, type ApiTokenRow, type User } from "../schema";
import { recordAudit } from "./audit-log";
import { getUserOr404, touchLastActive } from "./users";

/**
 * API tokens for agents and scripts (`Authorization: Bearer flt_…`). The token is shown once; only
 * its SHA-256 (a token has 256 random bits: no slow hash needed) and a short prefix are stored. A
 * token acts as its user, with the user's current roles; a deactivated user's tokens stop working.
 */

export interface ApiTokenView {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  createdAt: string;
  createdBy: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  /** active, expired or revoked, as of now. */
  state: "active" | "expired" | "revoked";
}

const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

export function toApiTokenView(t: ApiTokenRow, now = Date.now()): ApiTokenView {
  const state = t.revokedAt ? "revoked" : t.expiresAt && Date.parse(t.expiresAt) <= now ? "expired" : "active";
  return { id: t.id, userId: t.userId, name: t.name, prefix: t.prefix, createdAt: iso(t.createdAt)!, createdBy: t.createdBy, expiresAt: iso(t.expiresAt), lastUsedAt: iso(t.lastUsedAt), revokedAt: iso(t.revokedAt), revokedBy: t.revokedBy, state };
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
/** Characters of the token shown in lists (`flt_` and 8 more): enough to tell tokens apart, useless to guess one. */
const PREFIX_LENGTH = API_TOKEN_PREFIX.length + 8;

/** Creates a token for a user; returns it in full once, with its stored view. */
export async function createApiToken(db: Executor, actor: AuditActor, params: { userId: string; name: string; expiresInDays?: number | null }): Promise<{ token: string; view: ApiTokenView }> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const expiresAt = params.expiresInDays ? new Date(Date.now() + params.expiresInDays * 24 * 3600 * 1000).toISOString() : null;
  return db.transaction(async (tx) => {
    const u = await getUserOr404(tx, params.userId);
    if (!u.active) throw new AppError("conflict", { userMessage: `${u.name} is deactivated: a token for them would not work. Reactivate them first.` });
    const [row] = await tx.insert(apiTokens).values({ userId: u.id, name: params.name, prefix: token.slice(0, PREFIX_LENGTH), tokenHash: hashToken(token), createdBy: actor.id, expiresAt }).returning();
    await recordAudit(tx, actor, {
      action: "token.create",
      summary: `Created API token "${row.name}" (${row.prefix}…) for ${u.name} <${u.email}>${expiresAt ? `, expires ${expiresAt}` : ", no expiry"}`,
      target: { type: "api_token", id: row.id },
      after: { userId: u.id, name: row.name, prefix: row.prefix, expiresAt },
    });
    return { token, view: toApiTokenView(row) };
  });
}

/** A user's tokens, newest first (revoked and expired ones too, so the history stays visible). */
export async function listApiTokens(db: Executor, userId: string): Promise<ApiTokenView[]> {
  const rows = await db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt));
  const now = Date.now();
  return rows.map((r) => toApiTokenView(r, now));
}

/**
 * Revokes a token. `ownerId` scopes it to one user's tokens (people revoking their own); without it
 * (an admin) any token. Revoking a revoked token changes nothing and records nothing.
 */
export async function revokeApiToken(db: Executor, actor: AuditActor, params: { id: string; ownerId?: string }): Promise<ApiTokenView> {
  const notFound = new AppError("not_found", { userMessage: `API token ${params.id} does not exist${params.ownerId ? " among your tokens" : ""}.` });
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(params.id)) throw notFound;
  return db.transaction(async (tx) => {
    const where = params.ownerId ? and(eq(apiTokens.id, params.id), eq(apiTokens.userId, params.ownerId)) : eq(apiTokens.id, params.id);
    const [row] = await tx.select().from(apiTokens).where(where).for("update");
    if (!row) throw notFound;
    if (row.revokedAt) return toApiTokenView(row);
    const [updated] = await tx.update(apiTokens).set({ revokedAt: new Date().toISOString(), revokedBy: actor.id }).where(eq(apiTokens.id, row.id)).returning();
    const [owner] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, row.userId));
    await recordAudit(tx, actor, {
      action: "token.revoke",
      summary: `Revoked API token "${row.name}" (${row.prefix}…) of ${owner?.name ?? row.userId}`,
      target: { type: "api_token", id: row.id },
      before: { revokedAt: null },
      after: { userId: row.userId, name: row.name, prefix: row.prefix, revokedAt: updated.revokedAt },
    });
    return toApiTokenView(updated);
  });
}

/**
 * The user and token a bearer token names, or an unauthorized AppError saying why (unknown, revoked,
 * expired, user deactivated). Marks the token's and the user's last use, at most once a minute.
 */
export async function authenticateApiToken(db: Executor, token: string): Promise<{ user: User; token: ApiTokenView }> {
  const refuse = (why: string) => new AppError("unauthorized", { userMessage: `${why} Create a new token on your account page (Account → API tokens) and send it as "Authorization: Bearer flt_…".` });
  if (!token.startsWith(API_TOKEN_PREFIX)) throw refuse(`The bearer token is not a Faultline API token (they start with ${API_TOKEN_PREFIX}).`);
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.tokenHash, hashToken(token)));
  if (!row) throw refuse("The API token is not known: it may be mistyped or incomplete.");
  const view = toApiTokenView(row);
  if (view.state === "revoked") throw refuse(`The API token "${row.name}" (${row.prefix}…) was revoked.`);
  if (view.state === "expired") throw refuse(`The API token "${row.name}" (${row.prefix}…) expired on ${view.expiresAt}.`);
  const [user] = await db.select().from(users).where(eq(users.id, row.userId));
  if (!user || !user.active) throw refuse(`The API token "${row.name}" (${row.prefix}…) belongs to a deactivated user.`);
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiTokens.id, row.id), or(isNull(apiTokens.lastUsedAt), sql`${apiTokens.lastUsedAt} < now() - interval '1 minute'`)));
  await touchLastActive(db, user.id);
  return { user, token: view };
}
