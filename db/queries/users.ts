import type { Decider } from "../../lib/mission/gate-policy";
import { createHash, randomBytes } from "node:crypto";
import type { ActorKind } from "../../lib/authority/types";
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { AuditActor } from "../../lib/audit";
import { hashPassword, verifyPassword } from "../../lib/auth/password";
import { ROLES, type Role } from "../../lib/auth/roles";
import { INVITE_TTL_MS, PASSWORD_MIN, RESET_TTL_MS, type NewUserInput } from "../../lib/auth/user-admin";
import { AppError } from "../../lib/errors";
import type { Executor } from "../client";
import { actors, auditLog, userInvites, users, type User } from "../schema";
import { recordAudit } from "./audit-log";
import { isUuid } from "../../lib/ids";

/**
 * NOTIFY channel told a user's id when what their sessions may do changes (deactivated, roles or groups
 * changed, password reset or set: sessions_valid_after moved). Every web process LISTENs and checks that
 * user's live sockets again at once (server/realtime.ts), so an ended session stops receiving updates then,
 * not at its next subscribe. Sent inside the change's transaction: delivered only if it commits.
 */
export const ACCESS_CHANNEL = "faultline_access";

async function accessChanged(tx: Executor, userId: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${userId})`);
}

export function userActorId(userId: string): string {
  return `user:${userId}`;
}

export async function getUserByEmail(db: Executor, email: string) {
  const [u] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return u ?? null;
}

export async function getUserById(db: Executor, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u ?? null;
}

export async function countUsers(db: Executor): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return r.n;
}

/** Creates (or updates) a user and the actor that represents them in the event log. */
export async function upsertUser(db: Executor, params: { email: string; name: string; passwordHash: string; roles: Role[] }) {
  const email = params.email.trim().toLowerCase();
  const [u] = await db
    .insert(users)
    .values({ email, name: params.name, passwordHash: params.passwordHash, roles: params.roles })
    .onConflictDoUpdate({ target: users.email, set: { name: params.name, passwordHash: params.passwordHash, roles: params.roles } })
    .returning();
  await ensureActor(db, { id: userActorId(u.id), kind: "user", displayName: u.name, userId: u.id });
  return u;
}

/** Where an actor comes from; the registry's kind (FDR-N002: human, agent or system) follows from it. */
export type ActorOrigin = "user" | "worker" | "cli" | "system" | "agent";
const KIND_OF: Record<ActorOrigin, ActorKind> = { user: "human", cli: "human", worker: "system", system: "system", agent: "agent" };

/** Registers an actor, or refreshes its name and meta (agents: provider, model, role). */
export async function ensureActor(db: Executor, params: { id: string; kind: ActorOrigin; displayName: string; userId?: string; meta?: Record<string, unknown> }) {
  const meta = { origin: params.kind, ...(params.meta ?? {}) };
  await db
    .insert(actors)
    .values({ id: params.id, kind: KIND_OF[params.kind], displayName: params.displayName, userId: params.userId ?? null, meta })
    .onConflictDoUpdate({ target: actors.id, set: { displayName: params.displayName, meta } });
}

export async function listActors(db: Executor) {
  return db.select().from(actors);
}

// ---------------------------------------------------------------------------------------------
// User administration (issue 6). Every change runs in one transaction with its audit row; the log
// never holds a password, a hash or a link token.

/** What the console and the REST API show of a user (never the password hash). */
export interface UserView {
  id: string;
  email: string;
  name: string;
  roles: string[];
  groups: string[];
  active: boolean;
  mustChangePassword: boolean;
  lastActiveAt: string | null;
  deactivatedAt: string | null;
  createdAt: string;
}

export function toUserView(u: User): UserView {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    roles: [...u.roles],
    groups: [...u.groups],
    active: u.active,
    mustChangePassword: u.mustChangePassword,
    lastActiveAt: u.lastActiveAt ? new Date(u.lastActiveAt).toISOString() : null,
    deactivatedAt: u.deactivatedAt ? new Date(u.deactivatedAt).toISOString() : null,
    createdAt: new Date(u.createdAt).toISOString(),
  };
}

/** Every user with their last activity, active ones first, then by name. */
export async function listUsers(db: Executor): Promise<UserView[]> {
  const rows = await db.select().from(users).orderBy(desc(users.active), users.name, users.email);
  return rows.map(toUserView);
}

/** A user by id, 404 with words when there is none (a malformed id names nobody either). */
export async function getUserOr404(db: Executor, id: string, opts: { forUpdate?: boolean } = {}): Promise<User> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new AppError("not_found", { userMessage: `User ${id} does not exist.` });
  const q = db.select().from(users).where(eq(users.id, id));
  const [u] = opts.forUpdate ? await q.for("update") : await q;
  if (!u) throw new AppError("not_found", { userMessage: `User ${id} does not exist. It may have been typed wrong; the users page lists everyone.` });
  return u;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
/** A one-time link's secret: 32 random bytes; only its SHA-256 is stored. */
const newLinkToken = () => randomBytes(32).toString("base64url");
/** A temporary password people can type: 16 characters without look-alikes. */
function temporaryPassword(): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(16);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
/** The link path of an invitation or reset token. */
export const invitePath = (token: string) => `/invite/${token}`;

const userTarget = (id: string) => ({ type: "user", id });

/** Refuses, with words, a change that would leave no active admin. Locks the admins' rows for the transaction. */
async function assertAnotherActiveAdmin(tx: Executor, userId: string, what: string): Promise<void> {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.active, true), sql`'admin' = any(${users.roles})`))
    .for("update");
  if (!admins.some((a) => a.id !== userId)) {
    throw new AppError("conflict", { userMessage: `Cannot ${what}: this is the last active admin, and nobody could manage users afterwards. Give another active user the admin role first.` });
  }
}

async function insertLink(tx: Executor, params: { userId: string; purpose: "invite" | "reset"; createdBy: string }): Promise<{ token: string; path: string; expiresAt: string }> {
  const token = newLinkToken();
  const expiresAt = new Date(Date.now() + (params.purpose === "invite" ? INVITE_TTL_MS : RESET_TTL_MS)).toISOString();
  // An earlier unused link of the user stops working: only the newest one counts.
  await tx.update(userInvites).set({ usedAt: sql`now()` }).where(and(eq(userInvites.userId, params.userId), isNull(userInvites.usedAt)));
  await tx.insert(userInvites).values({ tokenHash: sha256(token), userId: params.userId, purpose: params.purpose, createdBy: params.createdBy, expiresAt });
  return { token, path: invitePath(token), expiresAt };
}

async function insertUser(tx: Executor, params: { email: string; name: string; roles: Role[]; groups: string[]; passwordHash: string; mustChangePassword: boolean }): Promise<User> {
  const [u] = await tx
    .insert(users)
    .values({ email: params.email, name: params.name, roles: params.roles, groups: params.groups, passwordHash: params.passwordHash, mustChangePassword: params.mustChangePassword })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!u) {
    throw new AppError("conflict", {
      userMessage: `A user with the email ${params.email} already exists. Open their page to change them, or use another email.`,
      details: { fieldErrors: [{ path: "email", message: "is already used by another user" }] },
    });
  }
  await ensureActor(tx, { id: userActorId(u.id), kind: "user", displayName: u.name, userId: u.id });
  return u;
}

export type CreatedUser = { user: UserView; invite: { path: string; expiresAt: string } | null };

/**
 * Creates a user: with an initial password the admin sets (they must change it at first sign-in unless
 * told otherwise), or invited: no usable password yet, and a one-time link `/invite/<token>` valid
 * 7 days, returned once (only its hash is stored).
 */
export async function createUser(db: Executor, actor: AuditActor, input: NewUserInput): Promise<CreatedUser> {
  const passwordHash = await hashPassword(input.mode === "password" ? input.password : randomBytes(32).toString("base64url"));
  return db.transaction(async (tx) => {
    const mustChange = input.mode === "password" ? input.mustChangePassword : false;
    const u = await insertUser(tx, { email: input.email, name: input.name, roles: ROLES.filter((r) => input.roles.includes(r)), groups: input.groups, passwordHash, mustChangePassword: mustChange });
    const after = { email: u.email, name: u.name, roles: u.roles, groups: u.groups, mustChangePassword: u.mustChangePassword };
    if (input.mode === "invite") {
      const link = await insertLink(tx, { userId: u.id, purpose: "invite", createdBy: actor.id });
      await recordAudit(tx, actor, { action: "user.invite", summary: `Invited ${u.name} <${u.email}> as ${u.roles.join(", ")} (link valid until ${link.expiresAt})`, target: userTarget(u.id), after: { ...after, inviteExpiresAt: link.expiresAt } });
      return { user: toUserView(u), invite: { path: link.path, expiresAt: link.expiresAt } };
    }
    await recordAudit(tx, actor, { action: "user.create", summary: `Created ${u.name} <${u.email}> as ${u.roles.join(", ")}${mustChange ? " (must change the password at first sign-in)" : ""}`, target: userTarget(u.id), after });
    return { user: toUserView(u), invite: null };
  });
}

/** Changes name, roles, groups and/or active in one transaction, one audit row per kind of change. */
export async function updateUser(db: Executor, actor: AuditActor, userId: string, patch: { name?: string; roles?: Role[]; groups?: string[]; active?: boolean }): Promise<UserView> {
  return db.transaction(async (tx) => {
    let u = await getUserOr404(tx, userId, { forUpdate: true });
    const was = { active: u.active, roles: u.roles, groups: u.groups };
    const who = `${u.name} <${u.email}>`;
    const set = async (values: Partial<typeof users.$inferInsert>) => {
      [u] = await tx.update(users).set(values).where(eq(users.id, userId)).returning();
    };
    if (patch.name !== undefined && patch.name !== u.name) {
      const before = { name: u.name };
      await set({ name: patch.name });
      await ensureActor(tx, { id: userActorId(u.id), kind: "user", displayName: u.name, userId: u.id });
      await recordAudit(tx, actor, { action: "user.update", summary: `Renamed ${before.name} to ${u.name} <${u.email}>`, target: userTarget(u.id), before, after: { name: u.name } });
    }
    // Roles in the matrix's order, whatever order they came in.
    const roles = patch.roles && ROLES.filter((r) => patch.roles!.includes(r));
    if (roles !== undefined && !sameSet(roles, u.roles)) {
      if (u.roles.includes("admin") && !roles.includes("admin") && u.active) await assertAnotherActiveAdmin(tx, u.id, `remove the admin role from ${who}`);
      const before = { roles: u.roles };
      await set({ roles });
      await recordAudit(tx, actor, { action: "user.roles", summary: `Roles of ${who}: ${before.roles.join(", ") || "none"} → ${u.roles.join(", ")}`, target: userTarget(u.id), before, after: { roles: u.roles } });
    }
    const groups = patch.groups && [...new Set(patch.groups)].sort();
    if (groups !== undefined && !sameSet(groups, u.groups)) {
      const before = { groups: u.groups };
      await set({ groups });
      await recordAudit(tx, actor, { action: "user.groups", summary: `Groups of ${who}: ${before.groups.join(", ") || "none"} → ${u.groups.join(", ") || "none"}`, target: userTarget(u.id), before, after: { groups: u.groups } });
    }
    if (patch.active === false && u.active) {
      if (actor.id === userActorId(u.id)) throw new AppError("conflict", { userMessage: "You cannot deactivate yourself: you would lock yourself out. Ask another admin to do it." });
      if (u.roles.includes("admin")) await assertAnotherActiveAdmin(tx, u.id, `deactivate ${who}`);
      await set({ active: false, deactivatedAt: new Date().toISOString(), sessionsValidAfter: new Date().toISOString() });
      await tx.update(userInvites).set({ usedAt: sql`now()` }).where(and(eq(userInvites.userId, u.id), isNull(userInvites.usedAt)));
      await recordAudit(tx, actor, { action: "user.deactivate", summary: `Deactivated ${who}: they cannot sign in, and their sessions and API tokens stop working`, target: userTarget(u.id), before: { active: true }, after: { active: false } });
    } else if (patch.active === true && !u.active) {
      await set({ active: true, deactivatedAt: null });
      await recordAudit(tx, actor, { action: "user.reactivate", summary: `Reactivated ${who}`, target: userTarget(u.id), before: { active: false }, after: { active: true } });
    }
    if (u.active !== was.active || !sameSet(u.roles, was.roles) || !sameSet(u.groups, was.groups)) await accessChanged(tx, u.id);
    return toUserView(u);
  });
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

export const setUserRoles = (db: Executor, actor: AuditActor, userId: string, roles: Role[]) => updateUser(db, actor, userId, { roles });
export const setUserGroups = (db: Executor, actor: AuditActor, userId: string, groups: string[]) => updateUser(db, actor, userId, { groups });
export const deactivateUser = (db: Executor, actor: AuditActor, userId: string) => updateUser(db, actor, userId, { active: false });
export const reactivateUser = (db: Executor, actor: AuditActor, userId: string) => updateUser(db, actor, userId, { active: true });

export type PasswordReset = { mode: "temporary"; temporaryPassword: string } | { mode: "link"; path: string; expiresAt: string };

/**
 * Resets a user's password: a temporary password they must change at their next sign-in, or a one-time
 * link (24 hours) to set a new one. Either way their current sessions end at once.
 */
export async function resetUserPassword(db: Executor, actor: AuditActor, userId: string, mode: "temporary" | "link"): Promise<PasswordReset> {
  const temp = mode === "temporary" ? temporaryPassword() : null;
  const passwordHash = temp ? await hashPassword(temp) : null;
  return db.transaction(async (tx) => {
    const u = await getUserOr404(tx, userId, { forUpdate: true });
    if (!u.active) throw new AppError("conflict", { userMessage: `${u.name} is deactivated: reactivate them first, then reset the password.` });
    const now = new Date().toISOString();
    await accessChanged(tx, u.id);
    if (temp && passwordHash) {
      await tx.update(users).set({ passwordHash, mustChangePassword: true, sessionsValidAfter: now }).where(eq(users.id, u.id));
      await tx.update(userInvites).set({ usedAt: sql`now()` }).where(and(eq(userInvites.userId, u.id), isNull(userInvites.usedAt)));
      await recordAudit(tx, actor, { action: "user.reset_password", summary: `Reset the password of ${u.name} <${u.email}> to a temporary one (must change at next sign-in); their sessions ended`, target: userTarget(u.id), after: { mode } });
      return { mode: "temporary", temporaryPassword: temp };
    }
    await tx.update(users).set({ sessionsValidAfter: now }).where(eq(users.id, u.id));
    const link = await insertLink(tx, { userId: u.id, purpose: "reset", createdBy: actor.id });
    await recordAudit(tx, actor, { action: "user.reset_password", summary: `Made a one-time password-reset link for ${u.name} <${u.email}> (valid until ${link.expiresAt}); their sessions ended`, target: userTarget(u.id), after: { mode, expiresAt: link.expiresAt } });
    return { mode: "link", path: link.path, expiresAt: link.expiresAt };
  });
}

export type InviteLookup =
  | { status: "valid"; purpose: "invite" | "reset"; user: { name: string; email: string }; expiresAt: string }
  | { status: "used" | "expired" | "unknown" };

/** What a one-time link is: valid (and for whom), already used, expired, or unknown. */
export async function lookupInvite(db: Executor, token: string): Promise<InviteLookup> {
  const [row] = await db
    .select({ purpose: userInvites.purpose, expiresAt: userInvites.expiresAt, usedAt: userInvites.usedAt, name: users.name, email: users.email, active: users.active, expired: sql<boolean>`${userInvites.expiresAt} <= now()` })
    .from(userInvites)
    .innerJoin(users, eq(users.id, userInvites.userId))
    .where(eq(userInvites.tokenHash, sha256(token)));
  if (!row || !row.active) return { status: "unknown" };
  if (row.usedAt) return { status: "used" };
  if (row.expired) return { status: "expired" };
  return { status: "valid", purpose: row.purpose, user: { name: row.name, email: row.email }, expiresAt: new Date(row.expiresAt).toISOString() };
}

const LINK_REFUSED: Record<"used" | "expired" | "unknown", string> = {
  used: "This link has already been used (or a newer one replaced it). Each link works once: ask an admin for a new one.",
  expired: "This link has expired. Ask an admin for a new invitation or password-reset link.",
  unknown: "This link is not valid: it may be incomplete, or the account was deactivated. Check that you copied all of it, or ask an admin for a new one.",
};

/**
 * Sets a password from a one-time link: the link is used up in the same transaction (two tabs cannot
 * both use it), earlier sessions end, and the audit log records it as the user's own action.
 */
export async function redeemInvite(db: Executor, params: { token: string; password: string; ip?: string | null; userAgent?: string | null }): Promise<{ email: string }> {
  if (params.password.length < PASSWORD_MIN) throw new AppError("bad_request", { userMessage: `The password must be at least ${PASSWORD_MIN} characters.`, details: { fieldErrors: [{ path: "password", message: `must be at least ${PASSWORD_MIN} characters` }] } });
  const passwordHash = await hashPassword(params.password);
  return db.transaction(async (tx) => {
    const [link] = await tx.select().from(userInvites).where(eq(userInvites.tokenHash, sha256(params.token))).for("update");
    const state = await lookupInvite(tx, params.token);
    if (!link || state.status !== "valid") throw new AppError(state.status === "unknown" ? "not_found" : "conflict", { userMessage: LINK_REFUSED[state.status === "valid" ? "unknown" : state.status] });
    await tx.update(userInvites).set({ usedAt: sql`now()` }).where(eq(userInvites.tokenHash, link.tokenHash));
    const [u] = await tx.update(users).set({ passwordHash, mustChangePassword: false, sessionsValidAfter: new Date().toISOString() }).where(eq(users.id, link.userId)).returning();
    await accessChanged(tx, u.id);
    await recordAudit(tx, { id: userActorId(u.id), name: u.name, via: "web", ip: params.ip ?? null, userAgent: params.userAgent ?? null }, {
      action: "user.password_set",
      summary: `${u.name} <${u.email}> set a password from ${link.purpose === "invite" ? "an invitation" : "a password-reset"} link`,
      target: userTarget(u.id),
      after: { via: link.purpose },
    });
    return { email: u.email };
  });
}

/** A signed-in user changes their own password: the current one must match, the new one differ. */
export async function changeOwnPassword(db: Executor, actor: AuditActor, userId: string, params: { currentPassword: string; newPassword: string }): Promise<void> {
  const u = await getUserOr404(db, userId);
  if (!(await verifyPassword(params.currentPassword, u.passwordHash))) {
    throw new AppError("bad_request", { userMessage: "The current password is not correct.", details: { fieldErrors: [{ path: "currentPassword", message: "is not correct" }] } });
  }
  if (params.newPassword === params.currentPassword) {
    throw new AppError("bad_request", { userMessage: "The new password must differ from the current one.", details: { fieldErrors: [{ path: "newPassword", message: "must differ from the current password" }] } });
  }
  const passwordHash = await hashPassword(params.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, mustChangePassword: false, sessionsValidAfter: new Date().toISOString() }).where(eq(users.id, u.id));
    await accessChanged(tx, u.id);
    await recordAudit(tx, actor, { action: "user.password_set", summary: `${u.name} <${u.email}> changed their password; their other sessions ended`, target: userTarget(u.id) });
  });
}

/**
 * The user a session names, or null when the session no longer counts: the user is gone or
 * deactivated, or the session began before `sessions_valid_after` (a password reset, a deactivation).
 * Marks the user's last activity, at most once a minute (one cheap conditional UPDATE).
 */
export async function loadSessionUser(db: Executor, userId: string, sessionStartMs: number | null): Promise<User | null> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
  const u = await getUserById(db, userId);
  if (!u || !u.active) return null;
  if (u.sessionsValidAfter && (sessionStartMs === null || sessionStartMs < Date.parse(u.sessionsValidAfter))) return null;
  await touchLastActive(db, u.id);
  return u;
}

/** last_active_at = now(), unless it was set less than a minute ago. */
export async function touchLastActive(db: Executor, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ lastActiveAt: sql`now()` })
    .where(and(eq(users.id, userId), or(isNull(users.lastActiveAt), sql`${users.lastActiveAt} < now() - interval '1 minute'`)));
}

/** Recent audit rows about a user (as the target) or by them (as the actor), newest first. */
export async function listUserAuditRows(db: Executor, userId: string, limit = 20) {
  return db
    .select()
    .from(auditLog)
    .where(or(and(eq(auditLog.targetType, "user"), eq(auditLog.targetId, userId)), eq(auditLog.actorId, userActorId(userId))))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit);
}


/**
 * Who wants to decide, as a gate policy sees them: a person's roles and groups re-read from the
 * database (a deactivated or unknown user has none); the CLI has no roles (`null`); anyone else none.
 */
export async function loadDecider(db: Executor, actorId: string): Promise<Decider> {
  if (actorId.startsWith("cli:")) return { actorId, roles: null, groups: [] };
  const userId = actorId.startsWith("user:") ? actorId.slice(5) : "";
  if (!isUuid(userId)) return { actorId, roles: [], groups: [] };
  const [u] = await db.select({ roles: users.roles, groups: users.groups, active: users.active }).from(users).where(eq(users.id, userId));
  if (!u || !u.active) return { actorId, roles: [], groups: [] };
  return { actorId, roles: u.roles, groups: u.groups };
}

/** The console theme a person chose (system, light, dark). */
export async function setUserTheme(db: Executor, userId: string, theme: "system" | "light" | "dark"): Promise<void> {
  await db.update(users).set({ theme }).where(eq(users.id, userId));
}
