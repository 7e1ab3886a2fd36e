import { afterAll, beforeAll, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import type { Principal, Role } from "../lib/auth/roles";

/**
 * Route handlers called as Next.js calls them (the exported handler with a Request and its params) on
 * a real PostgreSQL, for tests only. Only the session lookup is replaced (next-auth needs a request
 * context); authorization is still `can()` in every handler. Import this module before the routes:
 * its `vi.mock` is in place when a test file then imports them.
 */

const session = vi.hoisted(() => ({ user: null as Principal | null }));
vi.mock("@/server/auth", () => ({ getPrincipal: async () => session.user }));

/** Signed in as a made-up user holding these roles; no roles: signed out. */
export function as(...roles: Role[]): void {
  session.user = roles.length ? { id: `u-${roles.join("-")}`, name: roles.join("+"), email: `${roles[0]}@x`, roles } : null;
}

/** Signed in as this person; null: signed out. */
export function signedInAs(who: Principal | null): void {
  session.user = who;
}

/**
 * A fresh database for the test file, installed as the process-wide one (`getDb()` in the handlers),
 * then `seed`; dropped after the file.
 */
export function useRouteTestDatabase(seed: (tdb: TestDatabase) => Promise<unknown>): void {
  const globalDb = globalThis as unknown as { __faultlineDb?: unknown };
  let tdb: TestDatabase | undefined;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    globalDb.__faultlineDb = tdb;
    await seed(tdb);
  });
  afterAll(async () => {
    delete globalDb.__faultlineDb;
    await tdb?.drop();
  });
}

export const url = (path: string) => `http://localhost${path}`;
/** A route's second argument. */
export const params = <P>(p: P) => ({ params: Promise.resolve(p) });
/** A request with a JSON body (a string is sent as it is, to test malformed bodies). */
export const jsonRequest = (method: string, path: string, body: unknown) => new Request(url(path), { method, body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } });
/** The `error` of an API error response. */
export const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; details?: { fieldErrors?: Array<{ path: string; message: string }>; errors?: unknown[] } } }).error;
