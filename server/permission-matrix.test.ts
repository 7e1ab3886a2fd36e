import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { upsertUser } from "@/db/queries/users";
import { PERMISSIONS, ROLES, type Action, type Principal, type Role } from "@/lib/auth/roles";
import { jsonRequest, params, signedInAs, url, useRouteTestDatabase } from "./route-test-helpers";

/**
 * The permission matrix, walked: EVERY mutation (each exported server action in app/**\/actions.ts and
 * each POST/PUT/PATCH/DELETE route handler in app/api/v1) is called signed out and as each role, on a
 * real PostgreSQL, and must be refused (403 / `{status:'error', code:'forbidden'}`) exactly for the
 * roles lib/auth/roles.ts PERMISSIONS leaves out, and never refused for the others (it may then fail
 * validation or find nothing: the inputs only need to get past authorization). Signed out: 401 /
 * `unauthorized`. The second test scans app/ and fails when a mutation is missing here.
 *
 * Adding a mutation = one line below: its key (file#export for actions, "METHOD /api/v1/path" for
 * routes), the permission it needs, and an input.
 */

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/** One person per role, real users (real uuids: some handlers load the signed-in user). */
const people = {} as Record<Role, Principal>;
useRouteTestDatabase(async (tdb) => {
  for (const role of ROLES) {
    const u = await upsertUser(tdb.db, { email: `${role}@matrix.test`, name: `Matrix ${role}`, passwordHash: "not-a-hash", roles: [role] });
    people[role] = { id: u.id, name: u.name, email: u.email, roles: [role] };
  }
});

type Outcome = "unauthorized" | "forbidden" | "passed";
type Permission = Action | "public";
interface Mutation {
  key: string;
  permission: Permission;
  call(): Promise<Outcome>;
}

const APP = path.join(import.meta.dirname, "..", "app");

/** A server action: `file` under app/, its export, the input it is called with. */
function action(file: string, name: string, permission: Permission, input: unknown): Mutation {
  return {
    key: `${file}#${name}`,
    permission,
    async call() {
      const mod = (await import(/* @vite-ignore */ path.join(APP, file))) as Record<string, (i: unknown) => Promise<{ status: string; error?: { code: string } }>>;
      const r = await mod[name](input);
      return r.status === "error" && (r.error?.code === "forbidden" || r.error?.code === "unauthorized") ? (r.error.code as Outcome) : "passed";
    },
  };
}

/** A route handler: `METHOD /api/v1/path/[param]`, the params and the JSON body it is called with. */
function route(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", routePath: string, permission: Permission, opts: { params?: Record<string, string>; body?: unknown } = {}): Mutation {
  return {
    key: `${method} ${routePath}`,
    permission,
    async call() {
      const mod = (await import(/* @vite-ignore */ path.join(APP, routePath.slice(1), "route.ts"))) as Record<string, (req: Request, ctx: unknown) => Promise<Response>>;
      const p = routePath.replace(/\[(\w+)\]/g, (_, k: string) => opts.params?.[k] ?? UNKNOWN);
      const req = opts.body === undefined ? new Request(url(p), { method }) : jsonRequest(method, p, opts.body);
      const res = await mod[method](req, params(opts.params ?? {}));
      return res.status === 401 ? "unauthorized" : res.status === 403 ? "forbidden" : "passed";
    },
  };
}

/** A Claude Code hook route: always HTTP 200 (a non-2xx fails open in Claude Code); `Faultline-Error` says why it denied. */
function hook(routePath: string): Mutation {
  const inner = route("POST", routePath, "mission.create", { body: { session_id: "matrix", tool_name: "Read", tool_input: {}, tool_use_id: "t" } });
  return {
    ...inner,
    async call() {
      const mod = (await import(/* @vite-ignore */ path.join(APP, routePath.slice(1), "route.ts"))) as Record<string, (req: Request, ctx: unknown) => Promise<Response>>;
      const res = await mod.POST(jsonRequest("POST", routePath, { session_id: "matrix", tool_name: "Read", tool_input: {}, tool_use_id: "t" }), params({}));
      expect(res.status).toBe(200);
      const why = res.headers.get("faultline-error");
      return why === "unauthorized" ? "unauthorized" : why === "forbidden" ? "forbidden" : "passed";
    },
  };
}

const id = UNKNOWN;
const MUTATIONS: Mutation[] = [
  // Server actions.
  action("(console)/account/actions.ts", "changePasswordAction", "account.manage", { currentPassword: "wrong-password", newPassword: "another-password" }),
  action("(console)/account/actions.ts", "setThemeAction", "account.manage", { theme: "system" }),
  action("(console)/account/actions.ts", "createTokenAction", "token.manage", { name: "matrix" }),
  action("(console)/account/actions.ts", "revokeTokenAction", "token.manage", { id }),
  action("(console)/admin/users/actions.ts", "createUserAction", "user.manage", { mode: "invite" }),
  action("(console)/admin/users/actions.ts", "updateUserAction", "user.manage", { id, patch: { name: "x" } }),
  action("(console)/admin/users/actions.ts", "resetPasswordAction", "user.manage", { id, mode: "link" }),
  action("(console)/admin/users/actions.ts", "revokeUserTokenAction", "user.manage", { id }),
  action("(console)/admin/policies/actions.ts", "createPolicyAction", "policy.manage", {}),
  action("(console)/admin/policies/actions.ts", "updatePolicyAction", "policy.manage", { id }),
  action("(console)/admin/policies/actions.ts", "deletePolicyAction", "policy.manage", { id }),
  action("(console)/admin/authority/actions.ts", "publishAuthorityPolicyAction", "policy.manage", { rules: [] }),
  action("(console)/audit/actions.ts", "saveAuditQuery", "audit.view", {}),
  action("(console)/audit/actions.ts", "deleteAuditQuery", "audit.view", { id }),
  action("(console)/contributions/actions.ts", "checkContributionAction", "library.contribute", { entry: {} }),
  action("(console)/contributions/actions.ts", "saveContributionAction", "library.contribute", { input: {} }),
  action("(console)/contributions/actions.ts", "withdrawContributionAction", "library.contribute", { id }),
  action("(console)/contributions/actions.ts", "reviewContributionAction", "library.review", { id, verdict: "approve" }),
  action("(console)/contributions/actions.ts", "commentContributionAction", "library.contribute", { id, body: "x" }),
  action("(console)/gates/actions.ts", "decideGateAction", "gate.decide", { gateId: id, decision: "abort" }),
  action("(console)/gates/actions.ts", "decideProposalAction", "gate.decide", { proposalId: id, decision: "approve" }),
  action("(console)/gates/actions.ts", "decideGatesBulkAction", "gate.decide", { items: [{ gateId: id }], decision: "abort" }),
  action("(console)/gates/actions.ts", "diagnosisFeedbackAction", "gate.decide", { diagnosisId: "diag_matrix", verdict: "confirmed" }),
  action("(console)/history/actions.ts", "saveHistoryQuery", "history.view", {}),
  action("(console)/history/actions.ts", "deleteHistoryQuery", "history.view", { id }),
  action("(console)/library/actions.ts", "setEntryDeprecatedAction", "library.manage", { failureId: "FM-PHY-9999", deprecated: true, reason: "matrix" }),
  action("(console)/library/actions.ts", "rollbackLibraryAction", "library.manage", {}),
  action("(console)/library/actions.ts", "importLibraryAction", "library.manage", {}),
  action("(console)/missions/actions.ts", "createMissionAction", "mission.create", { text: "" }),
  action("(console)/missions/actions.ts", "pauseMissionAction", "mission.control", { missionId: id }),
  action("(console)/missions/actions.ts", "resumeMissionAction", "mission.control", { missionId: id }),
  action("(console)/missions/actions.ts", "abortMissionAction", "mission.control", { missionId: id }),
  action("(console)/patterns/actions.ts", "updatePatternAction", "pattern.manage", { id, enabled: false }),
  action("(console)/patterns/actions.ts", "deletePatternAction", "pattern.manage", { id }),
  action("(console)/patterns/actions.ts", "proposePatternAction", "library.contribute", { id }),
  // Public: no session yet; the one-time link is the credential (an unknown link is refused).
  action("invite/[token]/actions.ts", "setPasswordFromLinkAction", "public", { token: "unknown", password: "a-long-password", confirm: "a-long-password" }),

  // Route handlers.
  route("POST", "/api/v1/gates/[id]/decision", "gate.decide", { body: { decision: "abort" } }),
  route("POST", "/api/v1/gates/bulk-decision", "gate.decide", { body: { items: [{ gateId: id }], decision: "abort" } }),
  route("POST", "/api/v1/proposals/[id]/decision", "gate.decide", { body: { decision: "approve" } }),
  route("POST", "/api/v1/runs", "mission.create", { body: {} }),
  route("POST", "/api/v1/runs/[id]/proposals", "mission.create", { body: { callId: "c", tool: "Read" } }),
  route("POST", "/api/v1/runs/[id]/results", "mission.create", { body: { callId: "c", result: { ok: true, data: {} } } }),
  route("POST", "/api/v1/runs/[id]/finish", "mission.create", { body: {} }),
  route("POST", "/api/v1/runs/[id]/heartbeat", "mission.create"),
  hook("/api/v1/hooks/claude/pre-tool-use"),
  hook("/api/v1/hooks/claude/post-tool-use"),
  route("PUT", "/api/v1/authority/policy", "policy.manage", { body: { rules: [] } }),
  route("POST", "/api/v1/library/contributions", "library.contribute", { body: {} }),
  route("PATCH", "/api/v1/library/contributions/[id]", "library.contribute", { body: {} }),
  route("POST", "/api/v1/library/contributions/[id]/comments", "library.contribute", { body: { body: "x" } }),
  route("POST", "/api/v1/library/contributions/[id]/reviews", "library.review", { body: { verdict: "approve" } }),
  route("POST", "/api/v1/library/import", "library.manage", { body: {} }),
  route("POST", "/api/v1/library/query", "library.view", { body: {} }),
  route("POST", "/api/v1/library/rollback", "library.manage", { body: {} }),
  route("POST", "/api/v1/missions", "mission.create", { body: {} }),
  route("POST", "/api/v1/missions/[id]/abort", "mission.control"),
  route("POST", "/api/v1/missions/[id]/pause", "mission.control"),
  route("POST", "/api/v1/missions/[id]/resume", "mission.control"),
  route("PATCH", "/api/v1/patterns/[id]", "pattern.manage", { body: { enabled: false } }),
  route("DELETE", "/api/v1/patterns/[id]", "pattern.manage"),
  route("POST", "/api/v1/policies", "policy.manage", { body: {} }),
  route("PUT", "/api/v1/policies/[id]", "policy.manage", { body: {} }),
  route("DELETE", "/api/v1/policies/[id]", "policy.manage"),
  route("POST", "/api/v1/tokens", "token.manage", { body: {} }),
  route("DELETE", "/api/v1/tokens/[id]", "token.manage"),
  action("(console)/admin/webhooks/actions.ts", "createWebhookAction", "webhook.manage", {}),
  action("(console)/admin/webhooks/actions.ts", "setWebhookActiveAction", "webhook.manage", { id: UNKNOWN, active: false }),
  action("(console)/admin/webhooks/actions.ts", "deleteWebhookAction", "webhook.manage", { id: UNKNOWN }),
  action("(console)/admin/webhooks/actions.ts", "redeliverWebhookAction", "webhook.manage", { id: UNKNOWN }),
  route("POST", "/api/v1/webhooks", "webhook.manage", { body: {} }),
  route("PATCH", "/api/v1/webhooks/[id]", "webhook.manage", { body: { active: false } }),
  route("DELETE", "/api/v1/webhooks/[id]", "webhook.manage"),
  route("POST", "/api/v1/webhooks/deliveries/[id]/redeliver", "webhook.manage"),
  route("POST", "/api/v1/diagnoses/[id]/feedback", "gate.decide", { body: { verdict: "confirmed" } }),
  route("POST", "/api/v1/users", "user.manage", { body: {} }),
  route("PATCH", "/api/v1/users/[id]", "user.manage", { body: {} }),
  route("POST", "/api/v1/users/[id]/reset-password", "user.manage", { body: { mode: "link" } }),
];

/** Reads whose permission is narrower than mission.view, walked the same way (the scan below lists mutations only). */
const READS: Mutation[] = [
  route("GET", "/api/v1/missions/[id]/trace", "trace.export"),
  route("GET", "/api/v1/lab/runs", "lab.view"),
  route("GET", "/api/v1/lab/runs/[id]", "lab.view"),
  route("GET", "/api/v1/lab/runs/[id]/traces/[scenario]/[repeat]", "lab.view"),
];

/** Every file under `dir`, as paths relative to it with forward slashes. */
function filesUnder(dir: string, rel = ""): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? filesUnder(dir, p) : [p];
  });
}

/** What the matrix expects of a role (null: signed out). */
function expected(permission: Permission, role: Role | null): Outcome {
  if (permission === "public") return "passed";
  if (!role) return "unauthorized";
  return PERMISSIONS[permission].includes(role) ? "passed" : "forbidden";
}

describe("the permission matrix, walked over every mutation", () => {
  it.each([...MUTATIONS, ...READS].map((m) => [m.key, m] as const))("%s", async (_key, m) => {
    const seen: Record<string, Outcome> = {};
    const want: Record<string, Outcome> = {};
    for (const role of [null, ...ROLES]) {
      signedInAs(role ? people[role] : null);
      seen[role ?? "signed out"] = await m.call();
      want[role ?? "signed out"] = expected(m.permission, role);
    }
    expect(seen).toEqual(want);
  });

  it("lists every mutation in app/ (a new server action or POST/PUT/PATCH/DELETE handler must be added above)", () => {
    const found: string[] = [];
    const files = filesUnder(APP);
    for (const file of files.filter((f) => path.basename(f) === "actions.ts")) {
      const text = fs.readFileSync(path.join(APP, file), "utf8");
      for (const m of text.matchAll(/^export\s+(?:const|async\s+function|function)\s+(\w+)/gm)) found.push(`${file}#${m[1]}`);
    }
    for (const file of files.filter((f) => f.startsWith("api/v1/") && path.basename(f) === "route.ts")) {
      const text = fs.readFileSync(path.join(APP, file), "utf8");
      const routePath = `/${path.dirname(file)}`;
      for (const m of text.matchAll(/^export\s+(?:const|async\s+function|function)\s+(POST|PUT|PATCH|DELETE)\b/gm)) found.push(`${m[1]} ${routePath}`);
      for (const m of text.matchAll(/^export\s*{([^}]*)}/gm)) for (const name of m[1].split(",").map((s) => s.trim().split(/\s+as\s+/).pop()!)) if (/^(POST|PUT|PATCH|DELETE)$/.test(name)) found.push(`${name} ${routePath}`);
    }
    const listed = MUTATIONS.map((m) => m.key);
    expect(found.filter((k) => !listed.includes(k)), "mutations missing from the walk").toEqual([]);
    expect(listed.filter((k) => !found.includes(k)), "walk entries that no longer exist").toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });
});
