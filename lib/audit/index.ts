/**
 * The audit log's vocabulary (issue 6): every action a person or an agent takes is recorded as one
 * row: who (actor), what (action, target, summary), when, from where (via, ip, user agent), and
 * the state before and after where something changed.
 */

/** Where an action came from. */
export const AUDIT_VIA = ["web", "api", "cli", "worker", "system"] as const;
export type AuditVia = (typeof AUDIT_VIA)[number];

/** Who acts, and from where: built once per request (server/audit-context.ts) or per process (CLI, worker). */
export interface AuditActor {
  /** Actor id as in the event log: `user:<uuid>`, `cli:<os user>`, `worker:…`, `system`. */
  id: string;
  name: string;
  via: AuditVia;
  ip?: string | null;
  userAgent?: string | null;
}

/** Every kind of action the log records; grouped by the prefix before the dot. */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "mission.start",
  "mission.pause",
  "mission.resume",
  "mission.abort",
  "gate.decide",
  "gate.approve",
  "gate.timeout",
  "library.contribute",
  "library.contribution_edit",
  "library.contribution_submit",
  "library.comment",
  "library.review",
  "library.import",
  "library.rollback",
  "library.deprecate",
  "library.restore",
  "pattern.update",
  "pattern.delete",
  "memory.export",
  "trace.export",
  "user.create",
  "user.invite",
  "user.update",
  "user.roles",
  "user.groups",
  "user.deactivate",
  "user.reactivate",
  "user.reset_password",
  "user.password_set",
  "token.create",
  "token.revoke",
  "policy.create",
  "policy.update",
  "policy.delete",
  "proposal.decide",
  "proposal.modify",
  "authority.policy",
  "saved_query.create",
  "saved_query.delete",
  "history.export",
  "audit.export",
  "webhook.create",
  "webhook.update",
  "webhook.delete",
  "webhook.redeliver",
  "diagnosis.feedback",
  "lab.record",
  "counterfactual.verify",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditRecord {
  action: AuditAction;
  summary: string;
  outcome?: "ok" | "refused";
  target?: { type: string; id: string } | null;
  missionId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** The system itself (a worker applying a gate policy's timeout, the seed). */
export const SYSTEM_ACTOR: AuditActor = { id: "system", name: "Faultline (system)", via: "system" };

/** Request header the web server sets to the peer's address (overwriting anything a client sent). */
export const REMOTE_ADDR_HEADER = "x-faultline-remote-addr";

/** The actor of a signed-in person, from the request's headers. */
export function personActor(user: { id: string; name: string }, via: AuditVia, headers: { get(name: string): string | null } | null): AuditActor {
  return { id: `user:${user.id}`, name: user.name, via, ip: headers?.get(REMOTE_ADDR_HEADER) || null, userAgent: headers?.get("user-agent") || null };
}
