import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { upsertUser } from "@/db/queries/users";
import type { TestDatabase } from "@/db/test-helpers";
import type { Principal } from "@/lib/auth/roles";
import { errorOf, jsonRequest as json, params, signedInAs, url, useRouteTestDatabase } from "@/server/route-test-helpers";

/**
 * /api/v1/users and /api/v1/tokens as Next.js calls them, on a real PostgreSQL; only the session lookup
 * is replaced. Users are created for real (their ids are real uuids: the handlers load them).
 */

const list = await import("./route");
const one = await import("./[id]/route");
const reset = await import("./[id]/reset-password/route");
const tokens = await import("../tokens/route");
const token = await import("../tokens/[id]/route");

let tdb: TestDatabase;
const people: Record<"ada" | "olga", Principal> = {
  ada: { id: "", name: "Ada Admin", email: "ada@api.test", roles: ["admin"] },
  olga: { id: "", name: "Olga Operator", email: "olga@api.test", roles: ["operator"] },
};
const as = (who: keyof typeof people | null) => signedInAs(who ? people[who] : null);

useRouteTestDatabase(async (t) => {
  tdb = t;
  for (const p of Object.values(people)) p.id = (await upsertUser(t.db, { email: p.email, name: p.name, passwordHash: "x", roles: [...p.roles] })).id;
});

const post = (body: unknown) => list.POST(json("POST", "/api/v1/users", body), params({}));
const patch = (id: string, body: unknown) => one.PATCH(json("PATCH", `/api/v1/users/${id}`, body), params({ id }));
const resetPw = (id: string, body: unknown) => reset.POST(json("POST", `/api/v1/users/${id}/reset-password`, body), params({ id }));

describe("/api/v1/users", () => {
  it("401 signed out, 403 naming user.manage for an operator", async () => {
    as(null);
    expect((await list.GET(new Request(url("/api/v1/users")), params({}))).status).toBe(401);
    as("olga");
    const res = await list.GET(new Request(url("/api/v1/users")), params({}));
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toMatch(/user manage.*admin/);
    expect((await post({ mode: "invite", email: "x@y.test", name: "X", roles: ["auditor"] })).status).toBe(403);
    expect((await patch(people.ada.id, { active: false })).status).toBe(403);
  });

  it("creates a user (201), refuses a duplicate email (409) and bad fields (400 with each field)", async () => {
    as("ada");
    const res = await post({ mode: "password", email: "Paul@API.test", name: "Paul", roles: ["reviewer"], groups: ["night-shift"], password: "pauls-password" });
    expect(res.status).toBe(201);
    const { user, invite } = await res.json();
    expect(user).toMatchObject({ email: "paul@api.test", roles: ["reviewer"], groups: ["night-shift"], mustChangePassword: true, active: true });
    expect(user.passwordHash).toBeUndefined();
    expect(invite).toBeNull();
    const dup = await post({ mode: "password", email: "paul@api.test", name: "Paul 2", roles: ["reviewer"], password: "pauls-password" });
    expect(dup.status).toBe(409);
    expect((await errorOf(dup)).message).toMatch(/already exists/);
    const bad = await post({ mode: "password", email: "nope", name: "", roles: ["king"], groups: ["Night Shift"], password: "short" });
    expect(bad.status).toBe(400);
    const paths = (await errorOf(bad)).details!.fieldErrors!.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["email", "name", "roles.0", "groups.0", "password"]));
    expect((await post("{not json")).status).toBe(400);
  });

  it("invites a user: the one-time link is in the response only", async () => {
    as("ada");
    const res = await post({ mode: "invite", email: "ivy@api.test", name: "Ivy", roles: ["auditor"] });
    expect(res.status).toBe(201);
    const { user, invite } = await res.json();
    expect(invite.url).toMatch(/^http:\/\/localhost\/invite\/[\w-]{43}$/);
    const listed = await (await list.GET(new Request(url("/api/v1/users")), params({}))).json();
    expect(JSON.stringify(listed)).not.toContain(invite.path);
    expect(listed.users.find((u: { id: string }) => u.id === user.id)).toMatchObject({ name: "Ivy", active: true });
  });

  it("PATCH changes roles, groups, name and active; 404 for an unknown user; 409 for the last admin; each change is audited via api", async () => {
    as("ada");
    const { user } = await (await post({ mode: "password", email: "rick@api.test", name: "Rick", roles: ["contributor"], password: "ricks-password" })).json();
    const res = await patch(user.id, { roles: ["contributor", "reviewer"], groups: ["on-call"], name: "Rick R." });
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ name: "Rick R.", roles: ["reviewer", "contributor"], groups: ["on-call"] });
    expect((await patch(user.id, { active: false })).status).toBe(200);
    const rows = await tdb.db.select().from(auditLog).where(eq(auditLog.targetId, user.id)).orderBy(auditLog.id);
    expect(rows.map((r) => r.action)).toEqual(["user.create", "user.update", "user.roles", "user.groups", "user.deactivate"]);
    expect(rows.every((r) => r.via === "api" && r.actorName === "Ada Admin")).toBe(true);

    expect((await patch("00000000-0000-4000-8000-000000000000", { active: false })).status).toBe(404);
    expect((await patch("not-an-id", { active: false })).status).toBe(404);
    expect((await patch(user.id, {})).status).toBe(400);
    const self = await patch(people.ada.id, { active: false });
    expect(self.status).toBe(409);
    expect((await errorOf(self)).message).toMatch(/yourself/);
    const demote = await patch(people.ada.id, { roles: ["operator"] });
    expect(demote.status).toBe(409);
    expect((await errorOf(demote)).message).toMatch(/last active admin/);
  });

  it("resets a password: a temporary one or a link, shown in the response only", async () => {
    as("ada");
    const temp = await (await resetPw(people.olga.id, { mode: "temporary" })).json();
    expect(temp.temporaryPassword).toMatch(/^\w{16}$/);
    const link = await (await resetPw(people.olga.id, { mode: "link" })).json();
    expect(link.url).toMatch(/\/invite\/[\w-]{43}$/);
    const bad = await resetPw(people.olga.id, { mode: "email" });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/temporary.*link/);
    expect((await resetPw("00000000-0000-4000-8000-000000000000", { mode: "link" })).status).toBe(404);
  });
});

describe("/api/v1/tokens", () => {
  it("every role manages its own tokens: create (shown once), list (never the token), revoke; others' tokens are 404, an admin revokes any", async () => {
    as("olga");
    const created = await tokens.POST(json("POST", "/api/v1/tokens", { name: "ci-bot", expiresInDays: 30 }), params({}));
    expect(created.status).toBe(201);
    const { token: secret, apiToken } = await created.json();
    expect(secret).toMatch(/^flt_/);
    const listed = await (await tokens.GET(new Request(url("/api/v1/tokens")), params({}))).json();
    expect(listed.tokens).toEqual([expect.objectContaining({ id: apiToken.id, name: "ci-bot", prefix: secret.slice(0, 12), state: "active" })]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const bad = await tokens.POST(json("POST", "/api/v1/tokens", { name: "", expiresInDays: 0 }), params({}));
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details!.fieldErrors!.map((f) => f.path)).toEqual(["name", "expiresInDays"]);

    // Ada's token is not Olga's to revoke.
    as("ada");
    const adas = (await (await tokens.POST(json("POST", "/api/v1/tokens", { name: "ada-script" }), params({}))).json()).apiToken;
    as("olga");
    expect((await token.DELETE(new Request(url(`/api/v1/tokens/${adas.id}`), { method: "DELETE" }), params({ id: adas.id }))).status).toBe(404);
    const revoked = await token.DELETE(new Request(url(`/api/v1/tokens/${apiToken.id}`), { method: "DELETE" }), params({ id: apiToken.id }));
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).apiToken).toMatchObject({ state: "revoked" });
    // An admin revokes anyone's.
    as("ada");
    const olgas = (await tokens.GET(new Request(url("/api/v1/tokens")), params({})).then((r) => r.json())).tokens;
    expect(olgas.map((t: { name: string }) => t.name)).toEqual(["ada-script"]);
    as("olga");
    const second = (await (await tokens.POST(json("POST", "/api/v1/tokens", { name: "second" }), params({}))).json()).apiToken;
    as("ada");
    expect((await token.DELETE(new Request(url(`/api/v1/tokens/${second.id}`), { method: "DELETE" }), params({ id: second.id }))).status).toBe(200);
    as(null);
    expect((await tokens.GET(new Request(url("/api/v1/tokens")), params({}))).status).toBe(401);
  });
});
