import { asc, eq, inArray, sql } from "drizzle-orm";
import type { AuditActor } from "../../lib/audit";
import { AppError } from "../../lib/errors";
import { effectivePolicy, formatDuration, policyName, policyScope, whoMayDecide, withPolicySnapshot, type GatePolicyInput, type GatePolicySnapshot, type PolicyGateKind } from "../../lib/mission/gate-policy";
import type { GateDecision, GateKind, MissionState } from "../../lib/mission/types";
import type { NewMissionEvent } from "../../lib/mission/events";
import type { Db, Executor } from "../client";
import { gatePolicies, missions, type GatePolicyRow } from "../schema";
import { recordAudit } from "./audit-log";

/** Gate policies (issue 6): list, the one in force for a gate, and changes audited in their transaction. */

export function policySnapshot(r: GatePolicyRow): GatePolicySnapshot {
  return {
    id: r.id,
    definition: r.definition,
    gateKind: r.gateKind as PolicyGateKind,
    roles: r.roles as GatePolicySnapshot["roles"],
    groups: r.groups,
    approvalsRequired: r.approvalsRequired,
    starterMayDecide: r.starterMayDecide,
    timeoutMs: r.timeoutMs ?? null,
    timeoutOutcome: (r.timeoutOutcome as GateDecision | null) ?? null,
    note: r.note,
  };
}

export async function listGatePolicies(db: Executor) {
  return db.select().from(gatePolicies).orderBy(asc(gatePolicies.definition), asc(gatePolicies.gateKind));
}

export async function getGatePolicyById(db: Executor, id: string) {
  const [r] = await db.select().from(gatePolicies).where(eq(gatePolicies.id, id));
  return r ?? null;
}

/** The policy in force for a gate of this kind in a mission of this definition (see effectivePolicy), as a snapshot. */
export async function policyInForce(db: Executor, definitionName: string, kind: GateKind): Promise<GatePolicySnapshot | null> {
  const rows = await db
    .select()
    .from(gatePolicies)
    .where(inArray(gatePolicies.definition, [definitionName, "*"]));
  const p = effectivePolicy(rows, definitionName, kind);
  return p ? policySnapshot(p) : null;
}

/** Mission definition names seen so far, for the policy form's suggestions. */
export async function listDefinitionNames(db: Executor): Promise<string[]> {
  const rows = await db.selectDistinct({ name: missions.name }).from(missions).orderBy(asc(missions.name)).limit(500);
  return rows.map((r) => r.name);
}

function auditView(r: GatePolicyRow) {
  const s = policySnapshot(r);
  return { scope: policyScope(s), who: whoMayDecide(s), ...s };
}

function describeChange(p: Pick<GatePolicySnapshot, "definition" | "gateKind" | "approvalsRequired" | "timeoutMs" | "timeoutOutcome" | "roles" | "groups">): string {
  const timeout = p.timeoutMs ? `, after ${formatDuration(p.timeoutMs)} → ${p.timeoutOutcome}` : "";
  return `'${policyName(p)}': ${whoMayDecide(p)}, ${p.approvalsRequired} approval${p.approvalsRequired === 1 ? "" : "s"}${timeout}`;
}

function duplicateScope(input: Pick<GatePolicyInput, "definition" | "gateKind">): AppError {
  return new AppError("conflict", {
    userMessage: `A policy for ${policyScope(input)} already exists. Edit that policy instead, or choose another definition or gate kind.`,
    details: { fieldErrors: [{ path: "gateKind", message: `a policy for ${policyScope(input)} already exists` }] },
  });
}

const isUniqueViolation = (e: unknown) => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === "23505" || err?.cause?.code === "23505";
};

export async function createGatePolicy(db: Db, params: { input: GatePolicyInput; actor: AuditActor }): Promise<GatePolicyRow> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(gatePolicies)
        .values({ ...params.input, createdBy: params.actor.id, updatedBy: params.actor.id })
        .returning();
      await recordAudit(tx, params.actor, { action: "policy.create", summary: `${params.actor.name} created gate policy ${describeChange(policySnapshot(row))}`, target: { type: "gate_policy", id: row.id }, before: null, after: auditView(row) });
      return row;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicateScope(params.input);
    throw e;
  }
}

const notFound = (id: string) => new AppError("not_found", { userMessage: `Gate policy ${id} does not exist (it may have been deleted). Reload the list of policies.` });

export async function updateGatePolicy(db: Db, params: { id: string; input: GatePolicyInput; actor: AuditActor }): Promise<GatePolicyRow> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select().from(gatePolicies).where(eq(gatePolicies.id, params.id)).for("update");
      if (!before) throw notFound(params.id);
      const [row] = await tx
        .update(gatePolicies)
        .set({ ...params.input, updatedBy: params.actor.id, updatedAt: sql`now()` })
        .where(eq(gatePolicies.id, params.id))
        .returning();
      await recordAudit(tx, params.actor, { action: "policy.update", summary: `${params.actor.name} changed gate policy ${describeChange(policySnapshot(row))} (open gates keep the policy they opened under)`, target: { type: "gate_policy", id: row.id }, before: auditView(before), after: auditView(row) });
      return row;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicateScope(params.input);
    throw e;
  }
}

export async function deleteGatePolicy(db: Db, params: { id: string; actor: AuditActor }): Promise<GatePolicyRow> {
  return db.transaction(async (tx) => {
    const [before] = await tx.delete(gatePolicies).where(eq(gatePolicies.id, params.id)).returning();
    if (!before) throw notFound(params.id);
    await recordAudit(tx, params.actor, { action: "policy.delete", summary: `${params.actor.name} deleted gate policy ${describeChange(policySnapshot(before))} (open gates keep the policy they opened under)`, target: { type: "gate_policy", id: before.id }, before: auditView(before), after: null });
    return before;
  });
}

/**
 * Adds the policy in force (snapshot) and its deadline to a `gate.opened` event, in the transaction
 * that appends it (called by appendEvents). The event log then says which rules the gate is under.
 */
export async function withGatePolicy(tx: Executor, state: MissionState, e: Extract<NewMissionEvent, { type: "gate.opened" }>, at: string): Promise<NewMissionEvent> {
  return withPolicySnapshot(e, await policyInForce(tx, state.name, e.payload.kind), at);
}

/** A policy as the console and the REST API show it: the snapshot fields, its scope and rule in words, who changed it when. */
export function toPolicyView(r: GatePolicyRow) {
  const s = policySnapshot(r);
  return { ...s, scope: policyScope(s), who: whoMayDecide(s), createdBy: r.createdBy, createdAt: new Date(r.createdAt).toISOString(), updatedBy: r.updatedBy, updatedAt: new Date(r.updatedAt).toISOString() };
}
export type PolicyView = ReturnType<typeof toPolicyView>;
