"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { decideGate } from "@/db/queries/gates";
import { userActorId } from "@/db/queries/users";
import { authedAction } from "@/server/safe-action";

const decideGateInput = z.object({
  gateId: z.guid("must be a gate id"),
  decision: z.enum(["retry", "skip", "abort"], { error: "must be retry, skip or abort" }),
  note: z
    .string()
    .trim()
    .max(2000, "must be at most 2000 characters")
    .nullish()
    .transform((v) => (v ? v : null)),
});

/** An operator's decision on an open gate (permission gate.decide). */
export const decideGateAction = authedAction({ name: "decideGate", permission: "gate.decide", input: decideGateInput }, async (input, { user }) => {
  const state = await decideGate(getDb(), { gateId: input.gateId, decision: input.decision, note: input.note, actorId: userActorId(user.id), actorName: user.name });
  const gate = state.gates.find((g) => g.id === input.gateId);
  return { missionId: state.id, decision: input.decision, decidedAt: gate?.decidedAt ?? new Date().toISOString(), runState: state.runState };
});
