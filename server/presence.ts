import { and, eq, inArray } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { Db } from "../db/client";
import { connectedElsewhere, leavePresence, recordSockets, refreshPresence } from "../db/queries/presence";
import { pauseMission } from "../db/queries/mission-control";
import { userActorId } from "../db/queries/users";
import { missions } from "../db/schema";
import { can, type Principal } from "../lib/auth/roles";
import { isAppError } from "../lib/errors";

export const PRESENCE_ACTOR = "system:web";

/**
 * FAILURE_MODEL level 4 (client failure): an operator who owns running missions and has had no live
 * connection for `graceMs` gets them paused ("Operator disconnected, mission paused"). Observers'
 * disconnects change nothing; a reconnect within the grace period cancels the pause.
 *
 * Any number of web processes (issue 19): each records its sockets per user in `operator_presence`
 * (db/queries/presence.ts) and keeps its rows fresh every `heartbeatMs`; when the grace period of a
 * user's last socket here ends, the missions are paused only if no other live web process holds a socket
 * of theirs. A process that stopped refreshing for 3 heartbeats no longer counts.
 */
export class OperatorPresence {
  private readonly connections = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Presence writes in the order the sockets came and went. */
  private writes: Promise<void> = Promise.resolve();
  private readonly heartbeat: NodeJS.Timeout;
  readonly webId = `web:${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

  constructor(
    private readonly db: Db,
    private readonly graceMs: number,
    private readonly log: (m: string) => void = () => {},
    private readonly heartbeatMs = 10_000,
  ) {
    this.heartbeat = setInterval(() => this.write(() => refreshPresence(this.db, this.webId)), heartbeatMs);
    this.heartbeat.unref();
  }

  private write(fn: () => Promise<void>): Promise<void> {
    this.writes = this.writes.then(fn).catch((e) => this.log(`operator presence: ${e instanceof Error ? e.message : e}`));
    return this.writes;
  }

  private record(userId: string): void {
    const sockets = this.connections.get(userId) ?? 0;
    void this.write(() => recordSockets(this.db, { webId: this.webId, userId, sockets }));
  }

  /** Resolves when every presence change so far is written. */
  flushed(): Promise<void> {
    return this.writes;
  }

  connected(user: Principal): void {
    this.connections.set(user.id, (this.connections.get(user.id) ?? 0) + 1);
    this.record(user.id);
    const t = this.timers.get(user.id);
    if (t) {
      clearTimeout(t);
      this.timers.delete(user.id);
      this.log(`${user.name} reconnected within ${this.graceMs} ms; nothing paused`);
    }
  }

  disconnected(user: Principal): void {
    const left = (this.connections.get(user.id) ?? 1) - 1;
    if (left > 0) this.connections.set(user.id, left);
    else this.connections.delete(user.id);
    this.record(user.id);
    if (left > 0) return;
    if (!can(user, "mission.control") || this.timers.has(user.id)) return; // an observer: no impact
    this.timers.set(
      user.id,
      setTimeout(() => {
        this.timers.delete(user.id);
        void this.pauseOwned(user).catch((e) => this.log(`pausing ${user.name}'s missions failed: ${e instanceof Error ? e.message : e}`));
      }, this.graceMs),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
    await this.write(() => leavePresence(this.db, this.webId));
  }

  private async pauseOwned(user: Principal): Promise<void> {
    await this.flushed();
    if (this.connections.get(user.id)) return; // came back meanwhile
    if (await connectedElsewhere(this.db, { webId: this.webId, userId: user.id, staleMs: 3 * this.heartbeatMs })) {
      this.log(`${user.name} has no connection here but one on another web process; nothing paused`);
      return;
    }
    const owner = userActorId(user.id);
    const rows = await this.db
      .select({ id: missions.id })
      .from(missions)
      .where(and(inArray(missions.runState, ["queued", "running"]), eq(missions.owner, owner)));
    for (const { id } of rows) {
      try {
        await pauseMission(this.db, { missionId: id, actorId: PRESENCE_ACTOR, kind: "client", message: `Operator disconnected, mission paused: ${user.name} owns this mission and has had no connection for ${Math.round(this.graceMs / 1000)} s.` });
        this.log(`paused mission ${id}: ${user.name} disconnected`);
      } catch (e) {
        if (!isAppError(e)) throw e; // already paused or ended meanwhile: nothing to do
      }
    }
  }
}
