import type { Db } from "@/db/client";
import { decideGate } from "@/db/queries/gates";
import { userActorId } from "@/db/queries/users";
import { getActorNames } from "@/db/queries/views";
import type { Principal } from "@/lib/auth/roles";
import { AppError, isAppError } from "@/lib/errors";
import type { GateDecision } from "@/lib/mission/types";

/**
 * Records a person's decision on a gate (shared by the server action and the REST route). When someone
 * else was faster, the conflict names them by display name rather than by actor id.
 */
export async function decideGateAs(db: Db, user: Principal, params: { gateId: string; decision: GateDecision; note: string | null }) {
  try {
    return await decideGate(db, { ...params, actorId: userActorId(user.id), actorName: user.name });
  } catch (e) {
    if (isAppError(e) && e.code === "conflict" && typeof e.details?.decidedBy === "string") {
      const by = e.details.decidedBy;
      const names = await getActorNames(db, [by]).catch(() => ({}) as Record<string, string>);
      const who = by === userActorId(user.id) ? "you" : (names[by] ?? by);
      throw new AppError("conflict", {
        message: e.message,
        userMessage: `This gate was already resolved by ${who} (${String(e.details.decision)}). Nothing was changed; the page shows the current state.`,
        details: { decision: e.details.decision, decidedBy: by, decidedByName: names[by] ?? null },
      });
    }
    throw e;
  }
}
