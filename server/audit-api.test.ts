import { gt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadStarterLibrary } from "../db/queries/library";
import { ensureActor } from "../db/queries/users";
import { auditLog, learnedPatterns, type AuditLogRow } from "../db/schema";
import { starterLibrary } from "../db/seed";
import type { TestDatabase } from "../db/test-helpers";
import type { Principal } from "../lib/auth/roles";
import { errorOf, jsonRequest, params, signedInAs, url, useRouteTestDatabase } from "./route-test-helpers";

/**
 * Every person's or agent's action writes exactly one audit row in the transaction of the change, with
 * the right actor, via, address, target and before/after; a refused change (409, 400) writes none.
 * Route handlers and server actions are called as Next.js calls them, on a real PostgreSQL.
 */

const missions = await import("../app/api/v1/missions/route");
const pause = await import("../app/api/v1/missions/[id]/pause/route");
const resume = await import("../app/api/v1/missions/[id]/resume/route");
const missionActions = await import("../app/(console)/missions/actions");
const contributions = await import("../app/api/v1/library/contributions/route");
const contribution = await import("../app/api/v1/library/contributions/[id]/route");
const reviews = await import("../app/api/v1/library/contributions/[id]/reviews/route");
const comments = await import("../app/api/v1/library/contributions/[id]/comments/route");
const contributionActions = await import("../app/(console)/contributions/actions");
const importer = await import("../app/api/v1/library/import/route");
const rollback = await import("../app/api/v1/library/rollback/route");
const libraryActions = await import("../app/(console)/library/actions");
const pattern = await import("../app/api/v1/patterns/[id]/route");
const patternActions = await import("../app/(console)/patterns/actions");
const sessionExport = await import("../app/api/v1/memory/session/route");
const audit = await import("../app/api/v1/audit/route");
const auditExport = await import("../app/api/v1/audit/export/route");

let tdb: TestDatabase;
const people: Record<string, Principal> = {
  olivia: { id: "0000000a-0000-4000-8000-000000000001", name: "Olivia Operator", email: "olivia@x", roles: ["operator"] },
  carla: { id: "0000000a-0000-4000-8000-000000000002", name: "Carla Contributor", email: "carla@x", roles: ["contributor"] },
  rita: { id: "0000000a-0000-4000-8000-000000000003", name: "Rita Reviewer", email: "rita@x", roles: ["reviewer"] },
  ada: { id: "0000000a-0000-4000-8000-000000000004", name: "Ada Admin", email: "ada@x", roles: ["admin"] },
  aud: { id: "0000000a-0000-4000-8000-000000000005", name: "Aldo Auditor", email: "aldo@x", roles: ["auditor"] },
};
const as = (who: keyof typeof people) => signedInAs(people[who]);
const actorOf = (who: keyof typeof people) => `user:${people[who].id}`;

/** A request from an address, as server/web.ts forwards it. */
const from = (req: Request, ip = "203.0.113.9") => {
  req.headers.set("x-faultline-remote-addr", ip);
  req.headers.set("user-agent", "audit-test/1.0");
  return req;
};
const json = (method: string, path: string, body: unknown) => from(jsonRequest(method, path, body));

/** Runs `fn` and returns its result with the audit rows it wrote. */
async function audited<T>(fn: () => Promise<T>): Promise<{ result: T; rows: AuditLogRow[] }> {
  const [{ max }] = (await tdb.db.execute(sql`select coalesce(max(id), 0)::int as max from audit_log`)) as Array<{ max: number }>;
  const result = await fn();
  return { result, rows: await tdb.db.select().from(auditLog).where(gt(auditLog.id, max)).orderBy(auditLog.id) };
}

const definition = { name: "Audit me", objective: "Show up in the audit log", phases: [{ name: "EXECUTION", agents: [{ name: "fetch", priority: "critical", steps: [{ tool: "http", args: { url: "http://127.0.0.1:9/" } }] }] }] };
const entry = {
  category: "Physical",
  surface_symptom: "Drawer latch clicks but the drawer stays shut after the child lock was fitted",
  hidden_reality: "A child-safety latch fitted inside the cabinet catches the drawer's back panel.",
  diagnostic_probe: "Open the cabinet door above and feel for a plastic latch at the back.",
  resolution_path: "Press the latch tab down while pulling the drawer.",
  risk_level: "Low",
  context_tags: ["drawer", "child-lock"],
  source: "crowdsourcing",
};

useRouteTestDatabase(async (t) => {
  tdb = t;
  await loadStarterLibrary(tdb.db, starterLibrary(), "system:seed");
  for (const p of Object.values(people)) await ensureActor(tdb.db, { id: `user:${p.id}`, kind: "user", displayName: p.name });
});

describe("missions in the audit log", () => {
  let missionId: string;

  it("a mission started through the API writes one mission.start row: who, via api, from where, the mission", async () => {
    as("olivia");
    const { result: res, rows } = await audited(() => missions.POST(json("POST", "/api/v1/missions", definition), params({})));
    expect(res.status).toBe(201);
    missionId = ((await res.json()) as { mission: { id: string } }).mission.id;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "mission.start", outcome: "ok", actorId: actorOf("olivia"), actorName: "Olivia Operator", via: "api", ip: "203.0.113.9", userAgent: "audit-test/1.0", targetType: "mission", targetId: missionId, missionId });
    expect(rows[0].summary).toBe('Olivia Operator started mission "Audit me" (1 step).');
    expect(rows[0].after).toMatchObject({ name: "Audit me", steps: 1 });
  });

  it("an invalid definition starts nothing and writes nothing", async () => {
    as("olivia");
    const { result: res, rows } = await audited(() => missions.POST(json("POST", "/api/v1/missions", { name: "x" }), params({})));
    expect(res.status).toBe(422);
    expect(rows).toEqual([]);
  });

  it("pause and resume write one row each with the run state before and after; a refused second pause (409) writes none", async () => {
    as("olivia");
    const paused = await audited(() => pause.POST(json("POST", `/api/v1/missions/${missionId}/pause`, { note: "coffee" }), params({ id: missionId })));
    expect(paused.result.status).toBe(200);
    expect(paused.rows).toHaveLength(1);
    expect(paused.rows[0]).toMatchObject({ action: "mission.pause", actorId: actorOf("olivia"), via: "api", targetId: missionId, before: { paused: null }, after: { paused: "operator: Olivia Operator paused the mission: coffee" } });
    const again = await audited(() => pause.POST(json("POST", `/api/v1/missions/${missionId}/pause`, {}), params({ id: missionId })));
    expect(again.result.status).toBe(409);
    expect(again.rows).toEqual([]);
    const resumed = await audited(() => resume.POST(json("POST", `/api/v1/missions/${missionId}/resume`, {}), params({ id: missionId })));
    expect(resumed.result.status).toBe(200);
    expect(resumed.rows.map((r) => [r.action, r.via, (r.before as { paused: string | null }).paused !== null, (r.after as { paused: string | null }).paused])).toEqual([["mission.resume", "api", true, null]]);
  });

  it("the console's server actions record via web", async () => {
    as("olivia");
    const { result, rows } = await audited(() => missionActions.createMissionAction({ text: JSON.stringify(definition) }));
    expect(result.status).toBe("ok");
    expect(rows.map((r) => [r.action, r.via, r.actorId])).toEqual([["mission.start", "web", actorOf("olivia")]]);
  });
});

describe("the library in the audit log", () => {
  let id: string;

  it("create (draft), edit, submit, comment: one row each, with the status and changed fields before and after", async () => {
    as("carla");
    const created = await audited(() => contributions.POST(json("POST", "/api/v1/library/contributions", { entry, submit: false }), params({})));
    expect(created.result.status).toBe(201);
    id = ((await created.result.json()) as { contribution: { id: string } }).contribution.id;
    expect(created.rows).toHaveLength(1);
    expect(created.rows[0]).toMatchObject({ action: "library.contribute", actorId: actorOf("carla"), via: "api", targetType: "contribution", targetId: id, after: { status: "draft", kind: "new" } });
    expect(created.rows[0].summary).toMatch(/^Carla Contributor proposed a new entry 'Drawer latch clicks but the drawer stay…' \(saved as a draft\)\.$/);

    const edited = await audited(() => contribution.PATCH(json("PATCH", `/api/v1/library/contributions/${id}`, { entry: { ...entry, risk_level: "Medium", risk_notes: "Pinched fingers" }, submit: false }), params({ id })));
    expect(edited.result.status).toBe(200);
    expect(edited.rows.map((r) => [r.action, r.before, r.after])).toEqual([["library.contribution_edit", { status: "draft", risk_level: "Low", risk_notes: null }, { status: "draft", risk_level: "Medium", risk_notes: "Pinched fingers" }]]);

    const submitted = await audited(() => contributionActions.saveContributionAction({ id, input: { entry: { ...entry, risk_level: "Medium", risk_notes: "Pinched fingers" }, submit: true } }));
    expect(submitted.result.status).toBe("ok");
    expect(submitted.rows.map((r) => [r.action, r.via, r.before, r.after])).toEqual([["library.contribution_submit", "web", { status: "draft" }, { status: "pending" }]]);

    const commented = await audited(() => comments.POST(json("POST", `/api/v1/library/contributions/${id}/comments`, { body: "Seen this twice at home." }), params({ id })));
    expect(commented.result.status).toBe(201);
    expect(commented.rows.map((r) => [r.action, r.targetId, (r.after as { body: string }).body])).toEqual([["library.comment", id, "Seen this twice at home."]]);
  });

  it("the author's own review is refused (409) and writes nothing; the reviewer's approval writes one row naming the version it published", async () => {
    as("carla");
    const own = await audited(() => contributionActions.reviewContributionAction({ id, verdict: "approve", reason: "looks right to me" }));
    expect(own.result.status).toBe("error"); // the author may not review: carla has no library.review
    expect(own.rows).toEqual([]);
    signedInAs({ ...people.rita, id: people.carla.id }); // a reviewer who is the author: refused by the query layer
    const self = await audited(() => reviews.POST(json("POST", `/api/v1/library/contributions/${id}/reviews`, { verdict: "approve", reason: "my own work" }), params({ id })));
    expect(self.result.status).toBe(409);
    expect(self.rows).toEqual([]);
    as("rita");
    const approved = await audited(() => reviews.POST(json("POST", `/api/v1/library/contributions/${id}/reviews`, { verdict: "approve", reason: "Matches what I saw" }), params({ id })));
    expect(approved.result.status).toBe(200);
    const outcome = (await approved.result.json()) as { publishedVersion: number; failureId: string };
    expect(approved.rows).toHaveLength(1);
    expect(approved.rows[0]).toMatchObject({ action: "library.review", actorId: actorOf("rita"), before: { status: "pending" }, after: { status: "approved", verdict: "approve", publishedVersion: outcome.publishedVersion, failureId: outcome.failureId } });
    expect(approved.rows[0].summary).toBe(`Rita Reviewer approved contribution 'Drawer latch clicks but the drawer stay…' (1 of 1 approval; published library v${outcome.publishedVersion} as ${outcome.failureId}): Matches what I saw`);
  });

  it("import, rollback, deprecate and restore: one row each; a refused deprecation (already deprecated) writes none", async () => {
    as("ada");
    const file = JSON.stringify({ entries: [{ ...starterLibrary()[0], risk_notes: "Edited by import" }] });
    const imported = await audited(() => importer.POST(from(new Request(url("/api/v1/library/import"), { method: "POST", body: file, headers: { "content-type": "application/json" } })), params({})));
    expect(imported.result.status).toBe(200);
    const { version } = (await imported.result.json()) as { version: number };
    expect(imported.rows.map((r) => [r.action, r.via, r.targetId, (r.after as { counts: { edited: number } }).counts.edited])).toEqual([["library.import", "api", `v${version}`, 1]]);
    expect(imported.rows[0].summary).toMatch(new RegExp(`^Ada Admin imported a library file: 1 edited \\(published library v${version}\\)\\.$`));

    const dry = await audited(() => importer.POST(new Request(url("/api/v1/library/import?dryRun=true"), { method: "POST", body: file, headers: { "content-type": "application/json" } }), params({})));
    expect(dry.result.status).toBe(200);
    expect(dry.rows).toEqual([]); // a preview changes nothing

    const rolled = await audited(() => rollback.POST(json("POST", "/api/v1/library/rollback", { to: version - 1 }), params({})));
    expect(rolled.result.status).toBe(200);
    expect(rolled.rows.map((r) => [r.action, r.before, (r.after as { rolledBackTo: number }).rolledBackTo])).toEqual([["library.rollback", { libraryVersion: version }, version - 1]]);

    const failureId = starterLibrary()[1].failure_id;
    const dep = await audited(() => libraryActions.setEntryDeprecatedAction({ failureId, deprecated: true, reason: "Superseded by a better entry" }));
    expect(dep.result.status).toBe("ok");
    expect(dep.rows.map((r) => [r.action, r.via, r.targetType, r.targetId, r.before, (r.after as { deprecated: boolean }).deprecated])).toEqual([["library.deprecate", "web", "library_entry", failureId, { deprecated: false }, true]]);
    const again = await audited(() => libraryActions.setEntryDeprecatedAction({ failureId, deprecated: true, reason: "Superseded by a better entry" }));
    expect(again.result).toMatchObject({ status: "error", error: { code: "conflict" } });
    expect(again.rows).toEqual([]);
    const restored = await audited(() => libraryActions.setEntryDeprecatedAction({ failureId, deprecated: false, reason: "Still useful after all" }));
    expect(restored.rows.map((r) => [r.action, r.before, (r.after as { deprecated: boolean }).deprecated])).toEqual([["library.restore", { deprecated: true }, false]]);
  });

  it("learned patterns: an update records enabled/threshold before and after, a delete what was deleted; a 404 writes nothing", async () => {
    const [p] = await tdb.db.insert(learnedPatterns).values({ when: "timeout:http", then: "retry_with_backoff", errorType: "timeout", tools: ["http"], successes: 5, failures: 1, confidence: 0.75, threshold: 0.8 }).returning();
    as("ada");
    const updated = await audited(() => pattern.PATCH(json("PATCH", `/api/v1/patterns/${p.id}`, { enabled: false, threshold: 0.9 }), params({ id: p.id })));
    expect(updated.result.status).toBe(200);
    expect(updated.rows.map((r) => [r.action, r.targetId, r.before, r.after])).toEqual([["pattern.update", p.id, { enabled: true, threshold: 0.8 }, { enabled: false, threshold: 0.9 }]]);
    expect(updated.rows[0].summary).toBe('Ada Admin disabled and set the threshold from 80% to 90% for learned pattern "timeout:http → retry_with_backoff".');
    const deleted = await audited(() => patternActions.deletePatternAction({ id: p.id }));
    expect(deleted.result.status).toBe("ok");
    expect(deleted.rows.map((r) => [r.action, r.via, (r.before as { then: string }).then])).toEqual([["pattern.delete", "web", "retry_with_backoff"]]);
    const gone = await audited(() => pattern.DELETE(new Request(url(`/api/v1/patterns/${p.id}`), { method: "DELETE" }), params({ id: p.id })));
    expect(gone.result.status).toBe(404);
    expect(gone.rows).toEqual([]);
  });

  it("a memory export is recorded with what was exported", async () => {
    as("olivia");
    const { result, rows } = await audited(() => sessionExport.GET(from(new Request(url("/api/v1/memory/session"))), params({})));
    expect(result.status).toBe(200);
    await result.text();
    expect(rows.map((r) => [r.action, r.actorId, r.targetId, r.summary])).toEqual([["memory.export", actorOf("olivia"), "session", "Olivia Operator exported session memory of all missions as JSON Lines."]]);
  });
});

describe("GET /api/v1/audit and its export", () => {
  it("auditors read the log filtered and paged; an operator is refused (403) naming the permission", async () => {
    as("olivia");
    const refused = await audit.GET(new Request(url("/api/v1/audit")), params({}));
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toMatch(/do not allow audit view: that needs admin or auditor/);
    as("aud");
    const res = await audit.GET(new Request(url(`/api/v1/audit?action=library.*&actor=${encodeURIComponent("Rita")}`)), params({}));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { entries: Array<{ action: string; actorName: string }>; nextCursor: string | null };
    expect(body.entries.map((e) => [e.action, e.actorName])).toEqual([["library.review", "Rita Reviewer"]]);
    const first = (await (await audit.GET(new Request(url("/api/v1/audit?limit=2")), params({}))).json()) as { entries: Array<{ id: number }>; nextCursor: string };
    const second = (await (await audit.GET(new Request(url(`/api/v1/audit?limit=2&cursor=${first.nextCursor}`)), params({}))).json()) as { entries: Array<{ id: number }> };
    expect(second.entries[0].id).toBeLessThan(first.entries[1].id);
    const bad = await audit.GET(new Request(url("/api/v1/audit?via=fax&limit=0")), params({}));
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/via: must be one of/);
  });

  it("exports the filtered view as CSV and records the export itself (audit.export)", async () => {
    as("aud");
    const { result, rows } = await audited(() => auditExport.GET(from(new Request(url("/api/v1/audit/export?format=csv&action=mission.*"))), params({})));
    expect(result.status).toBe(200);
    expect(result.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = (await result.text()).trim().split("\r\n");
    expect(lines[0]).toBe("id,at,actorId,actorName,action,outcome,targetType,targetId,missionId,summary,via,ip,userAgent,before,after");
    expect(lines.slice(1).map((l) => l.split(",")[4])).toEqual(["mission.start", "mission.resume", "mission.pause", "mission.start"]);
    expect(rows.map((r) => [r.action, r.actorId, r.summary])).toEqual([["audit.export", actorOf("aud"), "Aldo Auditor exported the audit log as CSV (action mission.*)."]]);
    const jsonl = await auditExport.GET(new Request(url("/api/v1/audit/export?format=jsonl&outcome=refused")), params({}));
    expect(await jsonl.text()).toBe("");
  });
});
