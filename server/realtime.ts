import type http from "node:http";
import { signalMission } from "./mission-signal";
import { decode } from "next-auth/jwt";
import { Server, type Socket } from "socket.io";
import { createDb, type DbHandle } from "../db/client";
import { listenToChannel } from "../db/listen";
import { EVENTS_CHANNEL, listEventsAfter } from "../db/queries/events";
import { ACCESS_CHANNEL, ensureActor, loadSessionUser } from "../db/queries/users";
import { sessionStart } from "../lib/auth/user-admin";
import { OperatorPresence, PRESENCE_ACTOR } from "./presence";
import { getMissionLastSeq } from "../db/queries/views";
import { setRealtimeHealth } from "./health";
import { listChangeCoalescer } from "../lib/realtime/list-changes";
import { can, roleSchema, type Principal, type Role } from "../lib/auth/roles";
import {
  MISSIONS_ROOM,
  SIGN_IN_MESSAGE,
  missionRoom,
  notifyPayloadSchema,
  subscribeMissionSchema,
  unsubscribeMissionSchema,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "../lib/realtime/protocol";

/**
 * Relays committed mission events to browsers over socket.io.
 *
 * One dedicated pg client LISTENs on faultline_events and faultline_access (reconnecting with backoff). A NOTIFY is only
 * a wake-up hint: for each mission with subscribers the relay reads the events after the last seq it
 * broadcast to that room (its watermark) and emits them. Work per mission is serialized, so a
 * subscriber's catch-up and a broadcast never interleave; clients drop seq <= lastSeq and re-subscribe
 * on a gap, so nobody sees a gap or a duplicate.
 */

interface SocketData {
  user: Principal;
  /** When the socket's session began (next-auth's authAt): checked again at each subscribe. */
  sessionStart: number | null;
}
type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface RealtimeOptions {
  databaseUrl: string;
  secret: string;
  /** Whether the session cookie is the __Secure- one (NEXTAUTH_URL is https). */
  secureCookie?: boolean;
  /** The missions list's change notices: at most one per this many ms per web process (default 250). */
  listChangeWindowMs?: number;
  /** How long an operator who owns running missions may be disconnected before they pause. */
  operatorDisconnectMs?: number;
  log?: (msg: string) => void;
}

export interface Realtime {
  io: RealtimeServer;
  close(): Promise<void>;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    if (!k) continue;
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      out[k] = part.slice(i + 1).trim();
    }
  }
  return out;
}

/** next-auth's session token, reassembled when it was split into `.0`, `.1`, … chunks. */
export function sessionTokenFromCookies(cookies: Record<string, string>, secure: boolean): string | null {
  const names = secure ? ["__Secure-next-auth.session-token"] : ["next-auth.session-token", "__Secure-next-auth.session-token"];
  for (const name of names) {
    if (cookies[name]) return cookies[name];
    const chunks: string[] = [];
    for (let i = 0; cookies[`${name}.${i}`] !== undefined; i++) chunks.push(cookies[`${name}.${i}`]);
    if (chunks.length) return chunks.join("");
  }
  return null;
}

export function attachRealtime(httpServer: http.Server, opts: RealtimeOptions): Realtime {
  const log = opts.log ?? ((m: string) => console.log(`[realtime] ${m}`));
  const handle: DbHandle = createDb(opts.databaseUrl, { max: 4, applicationName: "faultline-web-realtime" });
  const db = handle.db;
  // perMessageDeflate off (engine.io's default, said here on purpose): events are small, and compressing
  // would cost a deflate per socket, since a broadcast's one pre-built WebSocket frame is then unusable.
  const io: RealtimeServer = new Server(httpServer, { serveClient: false, path: "/socket.io", perMessageDeflate: false });

  // --- authentication: the next-auth JWT from the cookie, the user re-read from the database.
  /** The principal of an active user whose session began after the last reset, or null. */
  async function sessionPrincipal(id: string | null, started: number | null): Promise<Principal | null> {
    // A deactivated user, or a session begun before a password reset, is refused like no session.
    const user = id ? await loadSessionUser(db, id, started) : null;
    if (!user) return null;
    const roles = (user.roles ?? []).flatMap((r): Role[] => (roleSchema.safeParse(r).success ? [r as Role] : []));
    return { id: user.id, name: user.name, email: user.email, roles };
  }
  const cannotView = (p: Principal) => `Your roles (${p.roles.join(", ") || "none"}) do not allow viewing missions.`;

  io.use(async (socket, next) => {
    try {
      const token = sessionTokenFromCookies(parseCookies(socket.request.headers.cookie), opts.secureCookie ?? false);
      const jwt = token ? await decode({ token, secret: opts.secret }) : null;
      const id = jwt && typeof jwt.id === "string" ? jwt.id : null;
      const started = sessionStart(jwt);
      const principal = await sessionPrincipal(id, started);
      if (!principal) return next(new Error(SIGN_IN_MESSAGE));
      if (!can(principal, "mission.view")) return next(new Error(cannotView(principal)));
      socket.data.user = principal;
      socket.data.sessionStart = started;
      next();
    } catch (e) {
      log(`handshake failed: ${e instanceof Error ? e.message : String(e)}`);
      next(new Error(SIGN_IN_MESSAGE));
    }
  });

  /**
   * Authorization at join: the session is checked again (a user deactivated, reset or stripped of
   * mission.view since the handshake subscribes to nothing more; an ended session is disconnected, and
   * its reconnection meets the handshake's refusal). Once per subscribe, never per event.
   */
  async function mayJoin(socket: RealtimeSocket, missionId: string | null): Promise<boolean> {
    const principal = await sessionPrincipal(socket.data.user.id, socket.data.sessionStart);
    if (!principal) {
      socket.emit("mission:error", { missionId, message: SIGN_IN_MESSAGE });
      socket.disconnect(true);
      return false;
    }
    socket.data.user = principal;
    if (!can(principal, "mission.view")) {
      socket.emit("mission:error", { missionId, message: cannotView(principal) });
      return false;
    }
    return true;
  }

  /**
   * Authorization when access changes: a user deactivated, reset or given other roles (ACCESS_CHANNEL,
   * sent by the change's transaction) has each of their sockets on this process checked again at once.
   * A session that no longer counts, or no longer may view missions, is told why and disconnected, so it
   * receives nothing more (its reconnection meets the handshake); one that still may keeps its rooms.
   */
  async function recheckSockets(userId: string | null): Promise<void> {
    const sockets = [...io.sockets.sockets.values()].filter((s) => s.data.user && (userId === null || s.data.user.id === userId));
    const verdicts = new Map<string, Promise<Principal | null>>();
    for (const socket of sockets) {
      const key = `${socket.data.user.id}:${socket.data.sessionStart ?? ""}`;
      if (!verdicts.has(key)) verdicts.set(key, sessionPrincipal(socket.data.user.id, socket.data.sessionStart));
      const principal = await verdicts.get(key)!;
      if (principal && can(principal, "mission.view")) {
        socket.data.user = principal;
        continue;
      }
      socket.emit("mission:error", { missionId: null, message: principal ? cannotView(principal) : SIGN_IN_MESSAGE });
      socket.disconnect(true);
    }
  }

  // --- per-mission serialized work and broadcast watermarks.
  const watermark = new Map<string, number>();
  const queues = new Map<string, Promise<void>>();
  const pendingSync = new Set<string>();

  function serialize(missionId: string, job: () => Promise<void>): Promise<void> {
    const prev = queues.get(missionId) ?? Promise.resolve();
    const run = prev.then(job).catch((e) => log(`mission ${missionId}: ${e instanceof Error ? e.message : String(e)}`));
    queues.set(missionId, run);
    void run.finally(() => {
      if (queues.get(missionId) === run) queues.delete(missionId);
    });
    return run;
  }

  const roomSize = (missionId: string) => io.sockets.adapter.rooms.get(missionRoom(missionId))?.size ?? 0;

  /** Broadcasts to the mission's room whatever follows the watermark (coalesced: one pending sync per mission). */
  function syncMission(missionId: string): void {
    if (pendingSync.has(missionId)) return;
    pendingSync.add(missionId);
    void serialize(missionId, async () => {
      pendingSync.delete(missionId);
      if (roomSize(missionId) === 0) {
        watermark.delete(missionId);
        return;
      }
      const after = watermark.get(missionId);
      if (after === undefined) return; // set by the first subscriber's catch-up
      const events = await listEventsAfter(db, { missionId, afterSeq: after });
      if (events.length === 0) return;
      io.to(missionRoom(missionId)).emit("mission:events", { missionId, events });
      watermark.set(missionId, events[events.length - 1].seq);
    });
  }

  io.of("/").adapter.on("delete-room", (room: string) => {
    if (room.startsWith("mission:")) watermark.delete(room.slice("mission:".length));
  });

  const presence = new OperatorPresence(db, opts.operatorDisconnectMs ?? 60_000, log);
  void ensureActor(db, { id: PRESENCE_ACTOR, kind: "system", displayName: "Faultline web (operator presence)" }).catch((e) => log(`presence actor: ${e instanceof Error ? e.message : e}`));

  io.on("connection", (socket: RealtimeSocket) => {
    const user = socket.data.user as Principal;
    presence.connected(user);
    socket.on("disconnect", () => presence.disconnected(user));
    // This socket's (un)subscribes run one after another, in the order sent: an unsubscribe sent while its
    // subscribe still awaits the session check or the mission's queue leaves after that join, not before it.
    let ops: Promise<unknown> = Promise.resolve();
    const inOrder = (what: string, op: () => Promise<unknown>) => {
      ops = ops.then(op).catch((e: unknown) => log(`${what}: ${e instanceof Error ? e.message : String(e)}`));
    };
    socket.on("subscribe:mission", (raw) => {
      const parsed = subscribeMissionSchema.safeParse(raw);
      if (!parsed.success) {
        socket.emit("mission:error", { missionId: null, message: `subscribe:mission needs {missionId: uuid, lastSeq: integer >= 0}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}` });
        return;
      }
      const { missionId, lastSeq } = parsed.data;
      inOrder(`subscribe to ${missionId}`, async () => {
        if (!(await mayJoin(socket, missionId))) return;
        await serialize(missionId, async () => {
          const current = await getMissionLastSeq(db, missionId);
          if (current === null) {
            socket.emit("mission:error", { missionId, message: `Mission ${missionId} does not exist.` });
            return;
          }
          // Join first, then read: anything committed after the read reaches the room.
          await socket.join(missionRoom(missionId));
          const events = await listEventsAfter(db, { missionId, afterSeq: lastSeq });
          if (events.length) socket.emit("mission:events", { missionId, events });
          if (!watermark.has(missionId)) watermark.set(missionId, events.length ? events[events.length - 1].seq : Math.min(lastSeq, current));
        });
      });
    });
    socket.on("unsubscribe:mission", (raw) => {
      const parsed = unsubscribeMissionSchema.safeParse(raw);
      if (parsed.success) inOrder(`unsubscribe from ${parsed.data.missionId}`, async () => socket.leave(missionRoom(parsed.data.missionId)));
    });
    socket.on("subscribe:missions", () => inOrder("subscribe to the missions list", async () => (await mayJoin(socket, null)) && socket.join(MISSIONS_ROOM)));
    socket.on("unsubscribe:missions", () => inOrder("unsubscribe from the missions list", async () => socket.leave(MISSIONS_ROOM)));
  });

  // --- LISTEN (reconnecting with backoff); NOTIFY is a hint, the event log by seq is the truth.
  // Lists only need to know they are stale: one notice per window, not one per commit per list socket.
  const listChanges = listChangeCoalescer(opts.listChangeWindowMs ?? 250, (change) => io.to(MISSIONS_ROOM).emit("missions:changed", change));
  function onNotify(payload: string) {
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      return log(`ignored a NOTIFY that is not JSON: ${payload.slice(0, 200)}`);
    }
    const p = notifyPayloadSchema.safeParse(json);
    if (!p.success) return log(`ignored a NOTIFY without {m, s}: ${payload.slice(0, 200)}`);
    listChanges.changed({ missionId: p.data.m, seq: p.data.s });
    signalMission(p.data.m, p.data.s);
    syncMission(p.data.m);
  }

  const recheck = (userId: string | null) => void recheckSockets(userId).catch((e: unknown) => log(`access check${userId ? ` of ${userId}` : ""}: ${e instanceof Error ? e.message : String(e)}`));
  const listener = listenToChannel(opts.databaseUrl, [EVENTS_CHANNEL, ACCESS_CHANNEL], {
    applicationName: "faultline-web-listen",
    maxBackoffMs: 15_000,
    onPayload: (payload, channel) => (channel === ACCESS_CHANNEL ? recheck(payload) : onNotify(payload)),
    onListening: (reconnected) => {
      setRealtimeHealth("healthy");
      if (!reconnected) return;
      // NOTIFYs may have been missed while disconnected: catch every watched mission up from the table,
      // and check every connected session again (an access change may have been missed too).
      log("LISTEN connection restored; catching up");
      recheck(null);
      for (const m of watermark.keys()) syncMission(m);
      listChanges.changed({ missionId: null, seq: 0 });
    },
    onLost: (reason, retryInMs) => {
      setRealtimeHealth("degraded", `its database LISTEN connection was lost (${reason}); reconnecting, so live updates are delayed`);
      log(`LISTEN connection lost (${reason}); reconnecting in ${retryInMs} ms`);
    },
  });

  return {
    io,
    async close() {
      listChanges.close();
      await presence.close();
      setRealtimeHealth("unavailable", "the relay was shut down");
      await listener.close();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.allSettled([...queues.values()]);
      await handle.close();
    },
  };
}
