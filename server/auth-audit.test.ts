import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../db/schema";
import { upsertUser } from "../db/queries/users";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { hashPassword } from "../lib/auth/password";

/**
 * Sign-in in the audit log: the credentials provider's `authorize` called directly, as next-auth calls
 * it (credentials and the request's headers as a record), on a real PostgreSQL. Sign-out goes through
 * next-auth's route handler, which needs a Next request: e2e/audit.spec.ts covers it.
 */

let tdb: TestDatabase;
let userId: string;
const globalDb = globalThis as unknown as { __faultlineDb?: unknown };
type Authorize = (credentials: Record<string, string> | undefined, req: { headers: Record<string, string> }) => Promise<{ id: string; name: string } | null>;
let authorize: Authorize;

beforeAll(async () => {
  tdb = await createTestDatabase();
  globalDb.__faultlineDb = tdb;
  const u = await upsertUser(tdb.db, { email: "sam@x.test", name: "Sam Signin", passwordHash: await hashPassword("correct horse"), roles: ["operator"] });
  userId = u.id;
  const { authOptions } = await import("./auth");
  authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;
});
afterAll(async () => {
  delete globalDb.__faultlineDb;
  await tdb?.drop();
});

const headers = { "x-faultline-remote-addr": "198.51.100.4", "user-agent": "Mozilla/5.0 (test)" };
const rows = async () => tdb.db.select().from(auditLog).orderBy(auditLog.id);

describe("sign-in in the audit log", () => {
  it("a sign-in writes one auth.sign_in row: the person, via web, their address and browser", async () => {
    const user = await authorize({ email: "SAM@x.test", password: "correct horse" }, { headers });
    expect(user?.id).toBe(userId);
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ action: "auth.sign_in", outcome: "ok", actorId: `user:${userId}`, actorName: "Sam Signin", via: "web", ip: "198.51.100.4", userAgent: "Mozilla/5.0 (test)", targetType: "user", targetId: userId, summary: "Sam Signin signed in from 198.51.100.4." });
  });

  it("a wrong password and an unknown email are refused and recorded with the email tried, never the password", async () => {
    expect(await authorize({ email: "sam@x.test", password: "battery staple" }, { headers })).toBeNull();
    expect(await authorize({ email: "nobody@x.test", password: "hunter2hunter2" }, { headers: { "x-faultline-remote-addr": "192.0.2.66" } })).toBeNull();
    const refused = (await rows()).slice(1);
    expect(refused.map((r) => [r.action, r.outcome, r.actorId, r.actorName, r.ip, r.targetType, r.targetId])).toEqual([
      ["auth.sign_in_failed", "refused", "anonymous", "Unknown (sam@x.test)", "198.51.100.4", "email", "sam@x.test"],
      ["auth.sign_in_failed", "refused", "anonymous", "Unknown (nobody@x.test)", "192.0.2.66", "email", "nobody@x.test"],
    ]);
    expect(refused[0].summary).toBe("Sign-in refused for sam@x.test: wrong email or password, or the account cannot sign in.");
    const text = JSON.stringify(refused);
    expect(text).not.toContain("battery staple");
    expect(text).not.toContain("hunter2hunter2");
  });
});
