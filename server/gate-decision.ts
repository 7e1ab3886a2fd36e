import type { Db } from "@/db/client";
import { decideGate } from "@/db/queries/gates";
import { userActorId } from "@/db/queries/users";
import type { Principal } from "@/lib/auth/roles";
import type { GateDecision } from "@/lib/mission/types";

/** Records a person's decision on a gate (shared by the server action and the REST route). */
export function decideGateAs(db: Db, user: Principal, params: { gateId: string; decision: GateDecision; note: string | null }) {
  return decideGate(db, { ...params, actorId: userActorId(user.id), actorName: user.name });
}
