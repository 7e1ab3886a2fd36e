import { asc, eq } from "drizzle-orm";
import { gateResolved } from "../../lib/mission/transitions";
import { AppError } from "../../lib/errors";
import type { GateDecision } from "../../lib/mission";
import type { Db, Executor } from "../client";
import { actors, gates, missions } from "../schema";
import { appendEvents } from "./events";

export async function listOpenGates(db: Executor) {
  return db
    .select({ gate: gates, missionName: missions.name })
    .from(gates)
    .innerJoin(missions, eq(missions.id, gates.missionId))
    .where(eq(gates.status, "open"))
    .orderBy(asc(gates.openedAt));
}

export async function getGateById(db: Executor, id: string) {
  const [row] = await db.select().from(gates).where(eq(gates.id, id));
  return row ?? null;
}

export async function listGatesByMission(db: Executor, missionId: string) {
  return db.select().from(gates).where(eq(gates.missionId, missionId)).orderBy(asc(gates.openedAt));
}

/**
 * Records an operator's decision on an open gate: appends `gate.resolved` (the decision record:
 * who, what, when, note, how long it was open) and makes the mission runnable again.
 */
export async function decideGate(db: Db, params: { gateId: string; decision: GateDecision; note: string | null; actorId: string; actorName: string }) {
  return db.transaction(async (tx) => {
    const [g] = await tx.select({ missionId: gates.missionId }).from(gates).where(eq(gates.id, params.gateId));
    if (!g) throw new AppError("not_found", { userMessage: `Gate ${params.gateId} does not exist. It may have been mistyped; list open gates with \`faultline gate list\` or the Gates page.` });
    const [m] = await tx.select({ state: missions.state }).from(missions).where(eq(missions.id, g.missionId)).for("update");
    const gate = m.state.gates.find((x) => x.id === params.gateId)!;
    if (gate.status !== "open") {
      const [by] = gate.decidedBy ? await tx.select({ name: actors.displayName }).from(actors).where(eq(actors.id, gate.decidedBy)) : [];
      const who = gate.decidedBy === params.actorId ? "you" : (by?.name ?? gate.decidedBy);
      throw new AppError("conflict", {
        userMessage: `This gate was already resolved: ${gate.decision} by ${who} at ${gate.decidedAt}. Nothing was changed.`,
        details: { decision: gate.decision, decidedBy: gate.decidedBy, decidedByName: by?.name ?? null },
      });
    }
    if (!gate.options.some((o) => o.action === params.decision)) {
      throw new AppError("unprocessable", { userMessage: `"${params.decision}" is not an option of this gate. Choose one of: ${gate.options.map((o) => o.action).join(", ")}.` });
    }
    const at = new Date().toISOString();
    const { state } = await appendEvents(tx, { missionId: g.missionId, actorId: params.actorId, events: [gateResolved(gate, params.decision, params.note, at, params.actorName)] });
    // A rate-limited agent is retried only after the provider's Retry-After, as the option said.
    const retryAfter = params.decision === "retry" ? state.agents[gate.agent]?.error?.retryAfter : undefined;
    if (retryAfter) await tx.update(missions).set({ runnableAt: new Date(Date.now() + retryAfter).toISOString() }).where(eq(missions.id, g.missionId));
    return state;
  });
}
