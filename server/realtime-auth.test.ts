import http from "node:http";
import type { AddressInfo } from "node:net";
import { encode } from "next-auth/jwt";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetUserPassword, updateUser, upsertUser, userActorId } from "../db/queries/users";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { SIGN_IN_MESSAGE } from "../lib/realtime/protocol";
import { attachRealtime, type Realtime } from "./realtime";

/**
 * The live-update handshake on a real PostgreSQL and a real socket.io server: a session cookie works
 * while its user is active and the session began after the last reset; a deactivated user, or a
 * session from before a password reset, is refused like no session.
 */

const SECRET = "realtime-auth-test-secret";
let tdb: TestDatabase;
let server: http.Server;
let rt: Realtime;
let base: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  server = http.createServer();
  rt = attachRealtime(server, { databaseUrl: tdb.url, secret: SECRET, log: () => {} });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await rt?.close();
  await new Promise((r) => server?.close(r));
  await tdb?.drop();
});

/** Connects with a next-auth session cookie; resolves "connected" or the refusal's message. */
async function handshake(userId: string, authAt: number): Promise<string> {
  const token = await encode({ token: { id: userId, authAt }, secret: SECRET });
  const socket = connect(base, { path: "/socket.io", transports: ["websocket"], extraHeaders: { cookie: `next-auth.session-token=${token}` }, reconnection: false });
  try {
    return await new Promise<string>((resolve) => {
      socket.on("connect", () => resolve("connected"));
      socket.on("connect_error", (e) => resolve(e.message));
    });
  } finally {
    socket.close();
  }
}

describe("socket handshake and user administration", () => {
  it("refuses a deactivated user and a session from before a password reset", async () => {
    const admin = await upsertUser(tdb.db, { email: "root@rt.test", name: "Root", passwordHash: "x", roles: ["admin"] });
    const user = await upsertUser(tdb.db, { email: "ana@rt.test", name: "Ana", passwordHash: "x", roles: ["operator"] });
    const actor = { id: userActorId(admin.id), name: "Root", via: "web" as const };
    const signedIn = Date.now();
    expect(await handshake(user.id, signedIn)).toBe("connected");

    await resetUserPassword(tdb.db, actor, user.id, "link");
    expect(await handshake(user.id, signedIn)).toBe(SIGN_IN_MESSAGE);
    expect(await handshake(user.id, Date.now())).toBe("connected");

    await updateUser(tdb.db, actor, user.id, { active: false });
    expect(await handshake(user.id, Date.now())).toBe(SIGN_IN_MESSAGE);
  });
});
