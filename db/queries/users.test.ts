import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditActor } from "../../lib/audit";
import { hashPassword } from "../../lib/auth/password";
import { newUserSchema } from "../../lib/auth/user-admin";
import { authOptions, principalFromBearer, refreshPrincipal } from "../../server/auth";
import { auditLog, userInvites, users } from "../schema";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { authenticateApiToken, createApiToken, listApiTokens, revokeApiToken } from "./api-tokens";
import { changeOwnPassword, createUser, listUserAuditRows, listUsers, loadSessionUser, lookupInvite, redeemInvite, resetUserPassword, updateUser, upsertUser, userActorId } from "./users";

/**
 * User administration and API tokens on a real PostgreSQL: each operation and its audit row, the
 * last-admin protection, one-time links, and what a deactivated user or a reset password does to
 * sign-in, sessions and tokens (server/auth.ts on the same database).
 */

let tdb: TestDatabase;
let adminId: string;
let admin: AuditActor;
const globalDb = globalThis as unknown as { __faultlineDb?: unknown };

beforeAll(async () => {
  tdb = await createTestDatabase();
  globalDb.__faultlineDb = tdb;
  const a = await upsertUser(tdb.db, { email: "ada@x.test", name: "Ada Admin", passwordHash: await hashPassword("ada-password-1"), roles: ["admin"] });
  adminId = a.id;
  admin = { id: userActorId(a.id), name: a.name, via: "web", ip: "10.0.0.1", userAgent: "vitest" };
});
afterAll(async () => {
  delete globalDb.__faultlineDb;
  await tdb?.drop();
});

/** The user-administration rows about someone (sign-ins are audited too: server/auth-audit.ts). */
const auditOf = (targetId: string) =>
  tdb.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetId, targetId), sql`${auditLog.action} like 'user.%'`))
    .orderBy(auditLog.id);
const create = (input: unknown) => createUser(tdb.db, admin, newUserSchema.parse(input));
const authorize = (email: string, password: string) =>
  (authOptions.providers[0] as unknown as { options: { authorize(c: unknown, req: unknown): Promise<unknown> } }).options.authorize({ email, password }, {});
let n = 0;
const email = (who: string) => `${who}-${++n}@x.test`;

describe("user administration (PostgreSQL)", () => {
  it("creates a user with an initial password they must change; the audit row holds no password or hash", async () => {
    const { user, invite } = await create({ mode: "password", email: email("olga"), name: "Olga Operator", roles: ["operator"], groups: ["night-shift", "night-shift"], password: "initial-pass-1" });
    expect(invite).toBeNull();
    expect(user).toMatchObject({ name: "Olga Operator", roles: ["operator"], groups: ["night-shift"], active: true, mustChangePassword: true, lastActiveAt: null });
    const [row] = await auditOf(user.id);
    expect(row).toMatchObject({ action: "user.create", actorId: admin.id, actorName: "Ada Admin", via: "web", ip: "10.0.0.1", targetType: "user" });
    expect(row.summary).toContain("Olga Operator");
    expect(JSON.stringify(row)).not.toMatch(/initial-pass-1|\$2[aby]\$/);
    expect(await authorize(user.email, "initial-pass-1")).toMatchObject({ id: user.id, roles: ["operator"] });
    expect((await listUsers(tdb.db)).map((u) => u.email)).toContain(user.email);
  });

  it("refuses a duplicate email with a 409 naming the field", async () => {
    const e = email("dup");
    await create({ mode: "password", email: e, name: "First", roles: ["auditor"], password: "initial-pass-1" });
    await expect(create({ mode: "password", email: e.toUpperCase(), name: "Second", roles: ["auditor"], password: "initial-pass-1" })).rejects.toMatchObject({ code: "conflict", details: { fieldErrors: [{ path: "email" }] } });
  });

  it("an invitation is a one-time link valid 7 days; only its hash is stored; used, it cannot be used again", async () => {
    const { user, invite } = await create({ mode: "invite", email: email("ivan"), name: "Ivan Invited", roles: ["reviewer"] });
    expect(invite!.path).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = invite!.path.split("/").pop()!;
    const days = (Date.parse(invite!.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const stored = await tdb.db.select().from(userInvites).where(eq(userInvites.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toContain(token);
    expect(JSON.stringify(await auditOf(user.id))).not.toContain(token);
    // No usable password before the link is used.
    expect(await authorize(user.email, "")).toBeNull();
    expect(await lookupInvite(tdb.db, token)).toMatchObject({ status: "valid", purpose: "invite", user: { name: "Ivan Invited" } });
    await expect(redeemInvite(tdb.db, { token, password: "short" })).rejects.toMatchObject({ code: "bad_request" });
    await redeemInvite(tdb.db, { token, password: "ivans-own-password" });
    expect(await authorize(user.email, "ivans-own-password")).toMatchObject({ id: user.id });
    expect(await lookupInvite(tdb.db, token)).toEqual({ status: "used" });
    await expect(redeemInvite(tdb.db, { token, password: "another-password" })).rejects.toMatchObject({ code: "conflict", userMessage: expect.stringMatching(/already been used/) });
    expect(await authorize(user.email, "another-password")).toBeNull();
    const actions = (await auditOf(user.id)).map((r) => [r.action, r.actorId]);
    expect(actions).toEqual([
      ["user.invite", admin.id],
      ["user.password_set", userActorId(user.id)],
    ]);
  });

  it("an expired link is refused with words; an unknown one too", async () => {
    const { invite } = await create({ mode: "invite", email: email("eve"), name: "Eve Expired", roles: ["auditor"] });
    const token = invite!.path.split("/").pop()!;
    await tdb.db.execute(sql`update user_invites set expires_at = now() - interval '1 second' where used_at is null`);
    expect(await lookupInvite(tdb.db, token)).toEqual({ status: "expired" });
    await expect(redeemInvite(tdb.db, { token, password: "a-long-password" })).rejects.toMatchObject({ userMessage: expect.stringMatching(/expired/) });
    expect(await lookupInvite(tdb.db, "not-a-token")).toEqual({ status: "unknown" });
    await expect(redeemInvite(tdb.db, { token: "not-a-token", password: "a-long-password" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("changes roles and groups, each with before and after in the audit log", async () => {
    const { user } = await create({ mode: "password", email: email("rolf"), name: "Rolf", roles: ["contributor"], password: "initial-pass-1" });
    await updateUser(tdb.db, admin, user.id, { roles: ["contributor", "reviewer"], groups: ["on-call", "night-shift"] });
    const rows = (await auditOf(user.id)).slice(1);
    expect(rows.map((r) => [r.action, r.before, r.after])).toEqual([
      ["user.roles", { roles: ["contributor"] }, { roles: ["reviewer", "contributor"] }],
      ["user.groups", { groups: [] }, { groups: ["night-shift", "on-call"] }],
    ]);
    // No change, no row.
    await updateUser(tdb.db, admin, user.id, { roles: ["reviewer", "contributor"] });
    expect(await auditOf(user.id)).toHaveLength(3);
    expect((await listUserAuditRows(tdb.db, user.id)).map((r) => r.action)).toEqual(["user.groups", "user.roles", "user.create"]);
  });

  it("protects the last active admin: no self-deactivation, no removing the last admin role or deactivating the last admin", async () => {
    await expect(updateUser(tdb.db, admin, adminId, { active: false })).rejects.toMatchObject({ code: "conflict", userMessage: expect.stringMatching(/yourself/) });
    const other = await create({ mode: "password", email: email("ops"), name: "Ops", roles: ["operator"], password: "initial-pass-1" });
    const opsActor: AuditActor = { id: userActorId(other.user.id), name: "Ops", via: "api" };
    await expect(updateUser(tdb.db, opsActor, adminId, { active: false })).rejects.toMatchObject({ code: "conflict", userMessage: expect.stringMatching(/last active admin/) });
    await expect(updateUser(tdb.db, admin, adminId, { roles: ["operator"] })).rejects.toMatchObject({ code: "conflict", userMessage: expect.stringMatching(/last active admin/) });
    expect((await tdb.db.select().from(users).where(eq(users.id, adminId)))[0]).toMatchObject({ active: true, roles: ["admin"] });
    // With a second active admin, the first may lose the role.
    const second = await create({ mode: "password", email: email("bea"), name: "Bea Admin", roles: ["admin"], password: "initial-pass-1" });
    const after = await updateUser(tdb.db, admin, adminId, { roles: ["admin", "operator"] });
    expect(after.roles).toEqual(["admin", "operator"]);
    await updateUser(tdb.db, admin, second.user.id, { active: false });
    await expect(updateUser(tdb.db, admin, adminId, { roles: ["operator"] })).rejects.toMatchObject({ code: "conflict" });
  });

  it("a deactivated user cannot sign in (same answer as a wrong password), their session and tokens stop at once; reactivated, they can sign in again", async () => {
    const { user } = await create({ mode: "password", email: email("dora"), name: "Dora", roles: ["operator"], password: "dora-password-1", mustChangePassword: false });
    const signedInAt = Date.now();
    const principal = { id: user.id, name: user.name, email: user.email, roles: ["operator" as const] };
    expect(await refreshPrincipal(principal, signedInAt)).toMatchObject({ id: user.id, roles: ["operator"] });
    const { token } = await createApiToken(tdb.db, { ...admin, id: userActorId(user.id) }, { userId: user.id, name: "ci-bot" });
    expect(await principalFromBearer(`Bearer ${token}`)).toMatchObject({ id: user.id, name: "Dora (token ci-bot)" });

    await updateUser(tdb.db, admin, user.id, { active: false });
    expect(await authorize(user.email, "dora-password-1")).toBeNull();
    expect(await authorize(user.email, "wrong-password")).toBeNull();
    expect(await refreshPrincipal(principal, signedInAt)).toBeNull();
    await expect(principalFromBearer(`Bearer ${token}`)).rejects.toMatchObject({ code: "unauthorized", userMessage: expect.stringMatching(/deactivated/) });
    expect((await auditOf(user.id)).at(-1)).toMatchObject({ action: "user.deactivate", before: { active: true }, after: { active: false } });

    await updateUser(tdb.db, admin, user.id, { active: true });
    expect(await authorize(user.email, "dora-password-1")).toMatchObject({ id: user.id });
    // The session from before the deactivation stays ended; a new sign-in counts.
    expect(await refreshPrincipal(principal, signedInAt)).toBeNull();
    expect(await refreshPrincipal(principal, Date.now())).toMatchObject({ id: user.id });
    expect((await auditOf(user.id)).at(-1)).toMatchObject({ action: "user.reactivate" });
  });

  it("a temporary password ends the user's sessions and must be changed; the change needs the current one and a different new one", async () => {
    const { user } = await create({ mode: "password", email: email("tom"), name: "Tom", roles: ["auditor"], password: "toms-password-1", mustChangePassword: false });
    const before = Date.now() - 1;
    const p = { id: user.id, name: user.name, email: user.email, roles: ["auditor" as const] };
    const reset = await resetUserPassword(tdb.db, admin, user.id, "temporary");
    if (reset.mode !== "temporary") throw new Error("expected a temporary password");
    expect(reset.temporaryPassword).toHaveLength(16);
    expect(await refreshPrincipal(p, before)).toBeNull();
    expect(await authorize(user.email, "toms-password-1")).toBeNull();
    expect(await authorize(user.email, reset.temporaryPassword)).toMatchObject({ id: user.id });
    expect(await refreshPrincipal(p, Date.now())).toMatchObject({ mustChangePassword: true });
    const row = (await auditOf(user.id)).at(-1)!;
    expect(row).toMatchObject({ action: "user.reset_password", after: { mode: "temporary" } });
    expect(JSON.stringify(row)).not.toContain(reset.temporaryPassword);

    const me: AuditActor = { id: userActorId(user.id), name: "Tom", via: "web" };
    await expect(changeOwnPassword(tdb.db, me, user.id, { currentPassword: "nope-nope-nope", newPassword: "toms-new-password" })).rejects.toMatchObject({ details: { fieldErrors: [{ path: "currentPassword" }] } });
    await expect(changeOwnPassword(tdb.db, me, user.id, { currentPassword: reset.temporaryPassword, newPassword: reset.temporaryPassword })).rejects.toMatchObject({ details: { fieldErrors: [{ path: "newPassword" }] } });
    await changeOwnPassword(tdb.db, me, user.id, { currentPassword: reset.temporaryPassword, newPassword: "toms-new-password" });
    expect(await authorize(user.email, "toms-new-password")).toMatchObject({ id: user.id });
    expect(await refreshPrincipal(p, Date.now())).toMatchObject({ mustChangePassword: false });
    expect((await auditOf(user.id)).at(-1)).toMatchObject({ action: "user.password_set", actorId: me.id });
  });

  it("a reset link works once, ends sessions, and replaces an earlier link", async () => {
    const { user } = await create({ mode: "password", email: email("lia"), name: "Lia", roles: ["auditor"], password: "lias-password-1" });
    const first = await resetUserPassword(tdb.db, admin, user.id, "link");
    const second = await resetUserPassword(tdb.db, admin, user.id, "link");
    if (first.mode !== "link" || second.mode !== "link") throw new Error("expected links");
    const hours = (Date.parse(second.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(await lookupInvite(tdb.db, first.path.split("/").pop()!)).toEqual({ status: "used" });
    expect(await loadSessionUser(tdb.db, user.id, Date.now() - 60_000)).toBeNull();
    await redeemInvite(tdb.db, { token: second.path.split("/").pop()!, password: "lias-new-password" });
    expect(await authorize(user.email, "lias-new-password")).toMatchObject({ id: user.id });
  });

  it("marks last activity at most once a minute", async () => {
    const { user } = await create({ mode: "password", email: email("max"), name: "Max", roles: ["auditor"], password: "max-password-1" });
    await loadSessionUser(tdb.db, user.id, Date.now());
    const [{ lastActiveAt: first }] = await tdb.db.select().from(users).where(eq(users.id, user.id));
    expect(first).not.toBeNull();
    await loadSessionUser(tdb.db, user.id, Date.now());
    const [{ lastActiveAt: again }] = await tdb.db.select().from(users).where(eq(users.id, user.id));
    expect(again).toBe(first);
    await tdb.db.execute(sql`update users set last_active_at = now() - interval '2 minutes' where id = ${user.id}`);
    await loadSessionUser(tdb.db, user.id, Date.now());
    const [{ lastActiveAt: later }] = await tdb.db.select().from(users).where(eq(users.id, user.id));
    expect(Date.parse(later!)).toBeGreaterThan(Date.parse(first!) - 1000);
  });
});

describe("API tokens (PostgreSQL)", () => {
  it("a token is shown once as flt_…; only a hash and a prefix are stored; it signs requests in as its user, named after the token", async () => {
    const { user } = await create({ mode: "password", email: email("ana"), name: "Ana Operator", roles: ["operator"], password: "anas-password-1" });
    const { token, view } = await createApiToken(tdb.db, admin, { userId: user.id, name: "ci-bot", expiresInDays: 30 });
    expect(token).toMatch(/^flt_[A-Za-z0-9_-]{43}$/);
    expect(view).toMatchObject({ name: "ci-bot", prefix: token.slice(0, 12), state: "active", lastUsedAt: null });
    const [stored] = (await tdb.db.execute(sql`select * from api_tokens where id = ${view.id}`)) as Array<Record<string, unknown>>;
    expect(JSON.stringify(stored)).not.toContain(token);
    const p = await principalFromBearer(`Bearer ${token}`);
    expect(p).toEqual({ id: user.id, name: "Ana Operator (token ci-bot)", email: user.email, roles: ["operator"] });
    expect((await listApiTokens(tdb.db, user.id))[0].lastUsedAt).not.toBeNull();
    const audit = (await tdb.db.select().from(auditLog).where(and(eq(auditLog.targetType, "api_token"), eq(auditLog.targetId, view.id))))[0];
    expect(audit).toMatchObject({ action: "token.create", after: { name: "ci-bot", prefix: view.prefix } });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("revoked, expired and unknown tokens are refused with words", async () => {
    const { user } = await create({ mode: "password", email: email("rex"), name: "Rex", roles: ["operator"], password: "rexs-password-1" });
    const me: AuditActor = { id: userActorId(user.id), name: "Rex", via: "web" };
    const revoked = await createApiToken(tdb.db, me, { userId: user.id, name: "old" });
    // Someone else's token is not found among one's own.
    await expect(revokeApiToken(tdb.db, { id: "user:other", name: "Other", via: "web" }, { id: revoked.view.id, ownerId: adminId })).rejects.toMatchObject({ code: "not_found" });
    const r = await revokeApiToken(tdb.db, me, { id: revoked.view.id, ownerId: user.id });
    expect(r).toMatchObject({ state: "revoked", revokedBy: me.id });
    await expect(authenticateApiToken(tdb.db, revoked.token)).rejects.toMatchObject({ code: "unauthorized", userMessage: expect.stringMatching(/"old".*revoked/) });
    const expired = await createApiToken(tdb.db, me, { userId: user.id, name: "short", expiresInDays: 1 });
    await tdb.db.execute(sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${expired.view.id}`);
    await expect(authenticateApiToken(tdb.db, expired.token)).rejects.toMatchObject({ userMessage: expect.stringMatching(/"short".*expired/) });
    await expect(authenticateApiToken(tdb.db, "flt_unknown")).rejects.toMatchObject({ userMessage: expect.stringMatching(/not known/) });
    await expect(authenticateApiToken(tdb.db, "ghp_something")).rejects.toMatchObject({ userMessage: expect.stringMatching(/not a Faultline API token/) });
    expect((await listApiTokens(tdb.db, user.id)).map((t) => [t.name, t.state])).toEqual([
      ["short", "expired"],
      ["old", "revoked"],
    ]);
    expect(await principalFromBearer(null)).toBeNull();
  });
});
