import type { AuditActor, AuditRecord } from "../../lib/audit";
import type { Executor } from "../client";
import { auditLog } from "../schema";

/**
 * Appends one row to the audit log. Call it in the transaction of the change it records, so the
 * log and the data never disagree (a rolled-back change leaves no audit row, and vice versa).
 */
export async function recordAudit(db: Executor, actor: AuditActor, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorName: actor.name,
    action: record.action,
    outcome: record.outcome ?? "ok",
    targetType: record.target?.type ?? null,
    targetId: record.target?.id ?? null,
    missionId: record.missionId ?? null,
    summary: record.summary,
    via: actor.via,
    ip: actor.ip ?? null,
    userAgent: actor.userAgent ? actor.userAgent.slice(0, 400) : null,
    before: record.before === undefined ? null : (record.before as object | null),
    after: record.after === undefined ? null : (record.after as object | null),
  });
}
