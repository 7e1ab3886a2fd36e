import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog } from "@/db/schema";
import { createApiToken, revokeApiToken } from "@/db/queries/api-tokens";
import { updateUser, upsertUser, userActorId } from "@/db/queries/users";
import { createTestDatabase, type TestDatabase } from "@/db/test-helpers";

/**
 * `Authorization: Bearer flt_…` on real routes with the real getPrincipal (server/auth.ts): no session
 * (next-auth's session lookup answers none, as for a script without cookies) and the request's headers
 * as Next.js would give them to `headers()`. Everything else is real: the token, its user, the route.
 */

const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next-auth", async (orig) => ({ ...(await orig<typeof import("next-auth")>()), getServerSession: async () => null }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));

const missions = await import("../missions/route");
const tokens = await import("./route");

let tdb: TestDatabase;
let ana: { id: string };
const globalDb = globalThis as unknown as { __faultlineDb?: unknown };
beforeAll(async () => {
  tdb = await createTestDatabase();
  globalDb.__faultlineDb = tdb;
  ana = await upsertUser(tdb.db, { email: "ana@bearer.test", name: "Ana Operator", passwordHash: "x", roles: ["operator"] });
});
afterAll(async () => {
  delete globalDb.__faultlineDb;
  await tdb?.drop();
});

const call = async <R>(handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<R>, req: Request) => {
  request.headers = req.headers;
  return handler(req, { params: Promise.resolve({}) });
};
const bearer = (t: string, init: RequestInit = {}) => ({ ...init, headers: { authorization: `Bearer ${t}`, "content-type": "application/json" } });
const anaActor = () => ({ id: userActorId(ana.id), name: "Ana Operator", via: "web" as const });

describe("Bearer API tokens on /api/v1", () => {
  it("a valid token reads missions as its user; its actions are audited naming the token", async () => {
    const { token } = await createApiToken(tdb.db, anaActor(), { userId: ana.id, name: "ci-bot" });
    const res = await call(missions.GET, new Request("http://localhost/api/v1/missions", bearer(token)));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ missions: [] });
    const made = await call(tokens.POST, new Request("http://localhost/api/v1/tokens", bearer(token, { method: "POST", body: JSON.stringify({ name: "made-by-bot" }) })));
    expect(made.status).toBe(201);
    const [row] = await tdb.db.select().from(auditLog).where(eq(auditLog.targetId, (await made.json()).apiToken.id));
    expect(row).toMatchObject({ action: "token.create", actorId: userActorId(ana.id), actorName: "Ana Operator (token ci-bot)", via: "api" });
  });

  it("no token: 401 asking to sign in; revoked, expired, unknown, or a deactivated user's: 401 saying which", async () => {
    const signedOut = await call(missions.GET, new Request("http://localhost/api/v1/missions"));
    expect(signedOut.status).toBe(401);
    expect((await signedOut.json()).error.message).toMatch(/not signed in/);

    const { token: revoked, view } = await createApiToken(tdb.db, anaActor(), { userId: ana.id, name: "old-bot" });
    await revokeApiToken(tdb.db, anaActor(), { id: view.id });
    const { token: expired, view: ev } = await createApiToken(tdb.db, anaActor(), { userId: ana.id, name: "short-bot", expiresInDays: 1 });
    await tdb.sql`update api_tokens set expires_at = now() - interval '1 minute' where id = ${ev.id}`;
    for (const [t, words] of [
      [revoked, /"old-bot".*revoked/],
      [expired, /"short-bot".*expired/],
      ["flt_nonsense", /not known/],
    ] as const) {
      const res = await call(missions.GET, new Request("http://localhost/api/v1/missions", bearer(t)));
      expect(res.status).toBe(401);
      expect((await res.json()).error.message).toMatch(words);
    }

    const { token: good } = await createApiToken(tdb.db, anaActor(), { userId: ana.id, name: "good-bot" });
    const admin = await upsertUser(tdb.db, { email: "root@bearer.test", name: "Root", passwordHash: "x", roles: ["admin"] });
    await updateUser(tdb.db, { id: userActorId(admin.id), name: "Root", via: "web" }, ana.id, { active: false });
    const res = await call(missions.GET, new Request("http://localhost/api/v1/missions", bearer(good)));
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toMatch(/deactivated/);
  });
});
