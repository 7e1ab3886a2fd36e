"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { decideGateAs } from "@/server/gate-decision";
import { authedAction } from "@/server/safe-action";
import { GATE_DECISIONS } from "@/lib/mission/types";

const decideGateInput = z.object({
  gateId: z.guid("must be a gate id"),
  decision: z.enum(GATE_DECISIONS, { error: `must be one of ${GATE_DECISIONS.join(", ")} (the gate's options say which apply)` }),
  note: z
    .string()
    .trim()
    .max(2000, "must be at most 2000 characters")
    .nullish()
    .transform((v) => (v ? v : null)),
});

/** An operator's decision on an open gate (permission gate.decide). */
export const decideGateAction = authedAction({ name: "decideGate", permission: "gate.decide", input: decideGateInput }, async (input, { user }) => {
  const state = await decideGateAs(getDb(), user, { gateId: input.gateId, decision: input.decision, note: input.note });
  const gate = state.gates.find((g) => g.id === input.gateId);
  return { missionId: state.id, decision: input.decision, decidedAt: gate?.decidedAt ?? new Date().toISOString(), runState: state.runState };
});
