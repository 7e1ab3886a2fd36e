import http from "node:http";
import type { AddressInfo } from "node:net";
import { encode } from "next-auth/jwt";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendEvents, createMission } from "../db/queries/events";
import { ensureActor, resetUserPassword, updateUser, upsertUser, userActorId } from "../db/queries/users";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import { definition } from "../lib/mission/test-fixtures";
import * as t from "../lib/mission/transitions";
import { SIGN_IN_MESSAGE, type ClientToServerEvents, type ServerToClientEvents } from "../lib/realtime/protocol";
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

/** A connected socket of `userId`'s session, with every mission:events and mission:error it receives. */
async function connected(userId: string, authAt: number) {
  const token = await encode({ token: { id: userId, authAt }, secret: SECRET });
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(base, { path: "/socket.io", transports: ["websocket"], extraHeaders: { cookie: `next-auth.session-token=${token}` }, reconnection: false });
  const seqs: number[] = [];
  const errors: string[] = [];
  let disconnected: string | null = null;
  socket.on("mission:events", (m) => seqs.push(...m.events.map((e) => e.seq)));
  socket.on("mission:error", (m) => errors.push(m.message));
  socket.on("disconnect", (reason) => (disconnected = reason));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return { socket, seqs, errors, disconnected: () => disconnected };
}

describe("socket authorization at join", () => {
  it("a subscriber gets the catch-up and then each commit once; after deactivation its next subscribe is refused and the socket ends", async () => {
    const admin = await upsertUser(tdb.db, { email: "root2@rt.test", name: "Root", passwordHash: "x", roles: ["admin"] });
    const user = await upsertUser(tdb.db, { email: "ben@rt.test", name: "Ben", passwordHash: "x", roles: ["operator"] });
    await ensureActor(tdb.db, { id: "worker:rt-test", kind: "system", displayName: "rt test" });
    const m = await createMission(tdb.db, { definition: definition(), actorId: userActorId(user.id) });
    const other = await createMission(tdb.db, { definition: definition(), actorId: userActorId(user.id) });
    const c = await connected(user.id, Date.now());
    try {
      c.socket.emit("subscribe:mission", { missionId: m.id, lastSeq: 0 });
      await expect.poll(() => c.seqs).toEqual([1]);
      // A commit after the join reaches the room through NOTIFY → one read → one broadcast.
      const r = await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:rt-test", events: [t.phaseStarted("EXECUTION", "start"), t.agentStarted("builder", 1)] }));
      await expect.poll(() => c.seqs).toEqual([1, ...r.events.map((e) => e.seq)]);

      await updateUser(tdb.db, { id: userActorId(admin.id), name: "Root", via: "web" }, user.id, { active: false });
      c.socket.emit("subscribe:mission", { missionId: other.id, lastSeq: 0 });
      await expect.poll(() => c.errors).toEqual([SIGN_IN_MESSAGE]);
      await expect.poll(() => c.disconnected()).toBe("io server disconnect");
      expect(c.seqs).toEqual([1, ...r.events.map((e) => e.seq)]); // nothing of the other mission
    } finally {
      c.socket.close();
    }
  });
});

describe("socket subscriptions in the order sent", () => {
  it("an unsubscribe sent right after its subscribe leaves the room after the join: later commits do not arrive", async () => {
    const user = await upsertUser(tdb.db, { email: "cleo@rt.test", name: "Cleo", passwordHash: "x", roles: ["operator"] });
    await ensureActor(tdb.db, { id: "worker:rt-test", kind: "system", displayName: "rt test" });
    const m = await createMission(tdb.db, { definition: definition(), actorId: userActorId(user.id) });
    const barrier = await createMission(tdb.db, { definition: definition(), actorId: userActorId(user.id) });
    const a = await connected(user.id, Date.now());
    const b = await connected(user.id, Date.now());
    const got = new Map<string, number[]>();
    a.socket.on("mission:events", (msg) => got.set(msg.missionId, [...(got.get(msg.missionId) ?? []), ...msg.events.map((e) => e.seq)]));
    try {
      b.socket.emit("subscribe:mission", { missionId: m.id, lastSeq: 0 });
      await expect.poll(() => b.seqs).toEqual([1]);
      a.socket.emit("subscribe:mission", { missionId: m.id, lastSeq: 0 });
      a.socket.emit("unsubscribe:mission", { missionId: m.id });
      await expect.poll(() => got.get(m.id)).toEqual([1]); // the catch-up of the subscribe
      const r = await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:rt-test", events: [t.phaseStarted("EXECUTION", "start")] }));
      await expect.poll(() => b.seqs).toEqual([1, r.events[0].seq]); // the room's broadcast went out
      // A round trip on a's connection after that broadcast: anything sent to a before it has arrived by now.
      a.socket.emit("subscribe:mission", { missionId: barrier.id, lastSeq: 0 });
      await expect.poll(() => got.get(barrier.id)).toEqual([1]);
      expect(got.get(m.id)).toEqual([1]);
    } finally {
      a.socket.close();
      b.socket.close();
    }
  });
});

describe("socket authorization when access changes", () => {
  it("a watcher deactivated mid-watch is told and disconnected at once, without subscribing again; another user's watch goes on", async () => {
    const admin = await upsertUser(tdb.db, { email: "root3@rt.test", name: "Root", passwordHash: "x", roles: ["admin"] });
    const dana = await upsertUser(tdb.db, { email: "dana@rt.test", name: "Dana", passwordHash: "x", roles: ["operator"] });
    const eli = await upsertUser(tdb.db, { email: "eli@rt.test", name: "Eli", passwordHash: "x", roles: ["auditor"] });
    await ensureActor(tdb.db, { id: "worker:rt-test", kind: "system", displayName: "rt test" });
    const m = await createMission(tdb.db, { definition: definition(), actorId: userActorId(dana.id) });
    const d = await connected(dana.id, Date.now());
    const e = await connected(eli.id, Date.now());
    const append = (events: Parameters<typeof appendEvents>[1]["events"]) => tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:rt-test", events }));
    try {
      d.socket.emit("subscribe:mission", { missionId: m.id, lastSeq: 0 });
      e.socket.emit("subscribe:mission", { missionId: m.id, lastSeq: 0 });
      await expect.poll(() => [d.seqs, e.seqs]).toEqual([[1], [1]]);

      await updateUser(tdb.db, { id: userActorId(admin.id), name: "Root", via: "web" }, dana.id, { active: false });
      await expect.poll(() => d.disconnected()).toBe("io server disconnect");
      expect(d.errors).toEqual([SIGN_IN_MESSAGE]);

      const r = await append([t.phaseStarted("EXECUTION", "start")]);
      await expect.poll(() => e.seqs).toEqual([1, r.events[0].seq]);
      expect(d.seqs).toEqual([1]);
      expect(e.disconnected()).toBeNull();
    } finally {
      d.socket.close();
      e.socket.close();
    }
  });

  it("a password reset ends the user's live sockets of earlier sessions", async () => {
    const admin = await upsertUser(tdb.db, { email: "root4@rt.test", name: "Root", passwordHash: "x", roles: ["admin"] });
    const fay = await upsertUser(tdb.db, { email: "fay@rt.test", name: "Fay", passwordHash: "x", roles: ["operator"] });
    const f = await connected(fay.id, Date.now());
    try {
      f.socket.emit("subscribe:missions");
      await resetUserPassword(tdb.db, { id: userActorId(admin.id), name: "Root", via: "web" }, fay.id, "link");
      await expect.poll(() => f.disconnected()).toBe("io server disconnect");
      expect(f.errors).toEqual([SIGN_IN_MESSAGE]);
    } finally {
      f.socket.close();
    }
  });
});

describe("the missions list's change notices", () => {
  it("a burst of commits reaches a list socket as one notice, not one per commit", async () => {
    const user = await upsertUser(tdb.db, { email: "gus@rt.test", name: "Gus", passwordHash: "x", roles: ["operator"] });
    await ensureActor(tdb.db, { id: "worker:rt-test", kind: "system", displayName: "rt test" });
    const missions = await Promise.all([1, 2, 3].map(() => createMission(tdb.db, { definition: definition(), actorId: userActorId(user.id) })));
    const barrier = await createMission(tdb.db, { definition: definition(), actorId: userActorId(user.id) });
    // A relay of its own (started after the missions' creation) whose window outlasts the test: one notice per window.
    const server2 = http.createServer();
    const rt2 = attachRealtime(server2, { databaseUrl: tdb.url, secret: SECRET, log: () => {}, listChangeWindowMs: 10 * 60_000 });
    await new Promise<void>((r) => server2.listen(0, "127.0.0.1", r));
    const token = await encode({ token: { id: user.id, authAt: Date.now() }, secret: SECRET });
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(`http://127.0.0.1:${(server2.address() as AddressInfo).port}`, { path: "/socket.io", transports: ["websocket"], extraHeaders: { cookie: `next-auth.session-token=${token}` }, reconnection: false });
    const notices: { missionId: string | null; seq: number }[] = [];
    const barrierSeqs: number[] = [];
    socket.on("missions:changed", (m) => notices.push(m));
    socket.on("mission:events", (m) => m.missionId === barrier.id && barrierSeqs.push(...m.events.map((e) => e.seq)));
    try {
      await new Promise<void>((resolve, reject) => (socket.once("connect", () => resolve()), socket.once("connect_error", reject)));
      socket.emit("subscribe:missions");
      socket.emit("subscribe:mission", { missionId: barrier.id, lastSeq: 0 });
      await expect.poll(() => barrierSeqs).toEqual([1]); // both joins done (they run in order)
      // A first commit relayed through NOTIFY proves LISTEN is in place; its list notice is the leading one.
      const first = await tdb.db.transaction((tx) => appendEvents(tx, { missionId: barrier.id, actorId: "worker:rt-test", events: [t.phaseStarted("EXECUTION", "start")] }));
      await expect.poll(() => barrierSeqs).toEqual([1, first.events[0].seq]);
      await expect.poll(() => notices).toEqual([{ missionId: barrier.id, seq: first.events[0].seq }]);
      for (const m of missions) {
        await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:rt-test", events: [t.phaseStarted("EXECUTION", "start")] }));
        await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:rt-test", events: [t.agentStarted("builder", 1)] }));
      }
      // NOTIFYs reach the relay in commit order on one connection: once the barrier's commit has been relayed,
      // every notice the six commits before it caused has been sent on this socket.
      const r = await tdb.db.transaction((tx) => appendEvents(tx, { missionId: barrier.id, actorId: "worker:rt-test", events: [t.agentStarted("builder", 1)] }));
      await expect.poll(() => barrierSeqs).toEqual([1, first.events[0].seq, r.events[0].seq]);
      expect(notices).toEqual([{ missionId: barrier.id, seq: first.events[0].seq }]); // the seven commits wait for the window's one notice
    } finally {
      socket.close();
      await rt2.close();
      await new Promise((r) => server2.close(r));
    }
  });
});
