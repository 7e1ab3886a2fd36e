import { and, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
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
 */
export class OperatorPresence {
  private readonly connections = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly db: Db,
    private readonly graceMs: number,
    private readonly log: (m: string) => void = () => {},
  ) {}

  connected(user: Principal): void {
    this.connections.set(user.id, (this.connections.get(user.id) ?? 0) + 1);
    const t = this.timers.get(user.id);
    if (t) {
      clearTimeout(t);
      this.timers.delete(user.id);
      this.log(`${user.name} reconnected within ${this.graceMs} ms; nothing paused`);
    }
  }

  disconnected(user: Principal): void {
    const left = (this.connections.get(user.id) ?? 1) - 1;
    if (left > 0) return void this.connections.set(user.id, left);
    this.connections.delete(user.id);
    if (!can(user, "mission.control") || this.timers.has(user.id)) return; // an observer: no impact
    this.timers.set(
      user.id,
      setTimeout(() => {
        this.timers.delete(user.id);
        void this.pauseOwned(user).catch((e) => this.log(`pausing ${user.name}'s missions failed: ${e instanceof Error ? e.message : e}`));
      }, this.graceMs),
    );
  }

  close(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
  }

  private async pauseOwned(user: Principal): Promise<void> {
    const owner = userActorId(user.id);
    const rows = await this.db
      .select({ id: missions.id })
      .from(missions)
      .where(and(inArray(missions.runState, ["queued", "running"]), sql`${missions.state}->>'owner' = ${owner}`));
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
