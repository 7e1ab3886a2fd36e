import { z } from "zod";

export const ROLES = ["admin", "operator", "reviewer", "contributor", "auditor"] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

/** Everything a signed-in person may try to do. */
export const ACTIONS = [
  "mission.view",
  "mission.create",
  "mission.control",
  "gate.view",
  "gate.decide",
  "user.manage",
  "pattern.manage",
  "memory.export",
  "trace.export",
  "lab.view",
  "library.view",
  "library.contribute",
  "library.review",
  "library.manage",
  "history.view",
  "audit.view",
  "governance.view",
  "policy.manage",
  "token.manage",
  "account.manage",
  "webhook.manage",
] as const;
export type Action = (typeof ACTIONS)[number];

/** The permission matrix: which roles may do what. Every role may view; only some may act. */
export const PERMISSIONS: Record<Action, readonly Role[]> = {
  "mission.view": ROLES,
  "gate.view": ROLES,
  "mission.create": ["admin", "operator"],
  "mission.control": ["admin", "operator"],
  "gate.decide": ["admin", "operator"],
  "user.manage": ["admin"],
  /** Disable, enable, re-threshold or delete learned recovery patterns (ADR-0003). */
  "pattern.manage": ["admin"],
  /** Export session and episodic memory (JSON Lines): it holds every diagnosed failure. */
  "memory.export": ["admin", "operator", "auditor"],
  /** Download a mission's trace (FDR-N004): its whole log with the worker's readings (tool outputs, model answers), secrets redacted. */
  "trace.export": ["admin", "operator", "auditor"],
  /** The Lab page and its API: recorded suite runs, their metrics and each run's trace (reviewers: the evidence of simulation drafts). */
  "lab.view": ["admin", "operator", "reviewer", "auditor"],
  /** Browse, search and query the failure-mode library; see entries' history and matched failures. */
  "library.view": ROLES,
  /** Propose a new entry or an edit, comment on contributions. */
  "library.contribute": ["admin", "operator", "reviewer", "contributor"],
  /** Approve, request changes on or reject others' contributions (never one's own). */
  "library.review": ["admin", "reviewer"],
  /** Import / export the library, deprecate / restore entries, roll back to an earlier version. */
  "library.manage": ["admin"],
  /** The failure history: every failure across missions, its charts, saved queries and exports. */
  "history.view": ROLES,
  /** The audit log of every person's and agent's actions (read and export; nobody can change it). */
  "audit.view": ["admin", "auditor"],
  /** The governance page (NIST AI RMF map / measure / manage). */
  "governance.view": ROLES,
  /** Create, change and delete gate policies (who decides, N of M approvals, timeouts). */
  "policy.manage": ["admin"],
  /** Create and revoke one's own API tokens (an admin manages everyone's with user.manage). */
  "token.manage": ROLES,
  /** Change one's own password (everyone who can sign in). */
  "account.manage": ROLES,
  /** Webhook subscriptions (where gate, proposal and mission events are sent, with their secrets) and their delivery log. */
  "webhook.manage": ["admin"],
};

export interface Principal {
  id: string;
  name: string;
  email: string;
  roles: readonly Role[];
  /** Set by an admin (a new user, a temporary password): the console sends them to /account/password first. */
  mustChangePassword?: boolean;
  /** The console's theme they chose (system: follow the operating system). */
  theme?: ThemeChoice;
}

export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** The one authorization check, called wherever data is touched. */
export function can(user: Pick<Principal, "roles"> | null | undefined, action: Action): boolean {
  if (!user) return false;
  return user.roles.some((r) => PERMISSIONS[action].includes(r));
}

export function describeMissingPermission(user: Principal | null | undefined, action: Action): string {
  if (!user) return "You are not signed in. Sign in and try again.";
  const allowed = PERMISSIONS[action].join(" or ");
  return `Your roles (${user.roles.join(", ") || "none"}) do not allow ${action.replace(".", " ")}: that needs ${allowed}. Ask an admin for the role if you need it.`;
}
