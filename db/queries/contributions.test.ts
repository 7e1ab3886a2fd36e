import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionDefinitionSchema } from "../../lib/mission";
import { starterLibrary } from "../seed";
import { libraryContributionComments, libraryContributions, libraryEntryVersions, learnedPatterns } from "../schema";
import { createTestDatabase, dbError, type TestDatabase } from "../test-helpers";
import { createMission } from "./events";
import {
  addComment,
  countContributionsByStatus,
  createContribution,
  getContribution,
  listContributions,
  markInReview,
  proposePattern,
  reviewContribution,
  similarEntries,
  updateContribution,
  withdrawContribution,
} from "./contributions";
import { getEntry, loadStarterLibrary } from "./library";
import { queryLibrary } from "./library-query";
import { ensureActor } from "./users";

/** Curation on a real PostgreSQL with the starter library loaded (version 1). */

let tdb: TestDatabase;
const ALICE = "user:alice"; // contributor
const RITA = "user:rita"; // reviewer
const RUDI = "user:rudi"; // second reviewer
const WORKER = "worker:test-1";

beforeAll(async () => {
  tdb = await createTestDatabase();
  await loadStarterLibrary(tdb.db, starterLibrary(), "system:seed");
  await ensureActor(tdb.db, { id: ALICE, kind: "user", displayName: "Alice Contributor" });
  await ensureActor(tdb.db, { id: RITA, kind: "user", displayName: "Rita Reviewer" });
  await ensureActor(tdb.db, { id: RUDI, kind: "user", displayName: "Rudi Reviewer" });
  await ensureActor(tdb.db, { id: WORKER, kind: "worker", displayName: "worker test-1" });
});
afterAll(async () => {
  await tdb?.drop();
});

const kettle = {
  title: "Kettle auto-off latch tripped",
  category: "State",
  surface_symptom: "Electric kettle switch springs back off at once and the water never heats; no light comes on",
  hidden_reality: "The boil-dry protector tripped after the kettle was switched on empty and has not cooled down yet, so the switch cannot latch.",
  diagnostic_probe: "Lift the kettle and feel its base: a hot base with little water confirms a tripped protector.",
  resolution_path: "Fill the kettle, wait ten minutes for the protector to cool, then switch it on again.",
  risk_level: "Low",
  context_tags: ["kitchen", "appliance", "kettle"],
  references: ["IEC 60335-2-15 household appliances: liquid heating"],
  source: "crowdsourcing",
};
const kettleQuery = { observed_symptom: "kettle switch springs back off immediately, water never heats, empty kettle boil-dry", object_class: "kettle", environmental_context: ["kitchen", "appliance"] };

/** The next free id of a series, from the starter library: a new entry must never take an existing id. */
const nextId = (prefix: string) => `${prefix}-${String(Math.max(...starterLibrary().filter((e) => e.failure_id.startsWith(`${prefix}-`)).map((e) => Number(e.failure_id.split("-")[2]))) + 1).padStart(4, "0")}`;
const version = async () => ((await tdb.db.execute(sql`select max(version)::int as v from library_versions`))[0] as { v: number }).v;

describe("contributions (PostgreSQL)", () => {
  it("validates a submission field by field and accepts an incomplete draft", async () => {
    const err = await createContribution(tdb.db, { actorId: ALICE, input: { entry: { ...kettle, surface_symptom: "short", risk_level: "Maybe", probe_action: { tool: "shell", args: { x: "y".repeat(9000) }, confirm_when: { exit_code: 0 } } } } }).catch((e) => e);
    expect(err.code).toBe("bad_request");
    const paths = (err.details.fieldErrors as Array<{ path: string; message: string }>).map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["entry.surface_symptom", "entry.risk_level", "entry.probe_action"]));
    expect(err.userMessage).toMatch(/surface_symptom must be at least 10 characters/);
    expect(err.userMessage).toMatch(/probe_action must be at most 8 KB of JSON/);
    const draft = await createContribution(tdb.db, { actorId: ALICE, input: { entry: { title: "Kettle", surface_symptom: "" }, submit: false } });
    expect(draft).toMatchObject({ status: "draft", kind: "new", origin: "contributor", authorId: ALICE });
    // An edit of an entry that does not exist is a field error, not a 500.
    const missing = await createContribution(tdb.db, { actorId: ALICE, input: { target_failure_id: "FM-PHY-9999", entry: kettle } }).catch((e) => e);
    expect(missing.code).toBe("bad_request");
    expect(missing.userMessage).toMatch(/FM-PHY-9999 does not exist/);
  });

  it("shows the most similar existing entries with scores, and says when the library abstains", async () => {
    const latch = await similarEntries(tdb.db, { surface_symptom: "Drawer will not open: 0 mm displacement when pulled, rigid stop", context_tags: ["drawer", "furniture"] });
    expect(latch.abstained).toBe(false);
    expect(latch.results[0]).toMatchObject({ failure_id: "FM-PHY-0001" });
    expect(latch.results[0].match_score).toBeGreaterThan(0.5);
    const none = await similarEntries(tdb.db, { surface_symptom: "the violin's fourth string sounds a quarter tone flat after tuning", context_tags: ["music"] });
    expect(none).toEqual({ results: [], abstained: true });
  });

  it("refuses the author's own approval, in the query layer, whatever their roles", async () => {
    const c = await createContribution(tdb.db, { actorId: ALICE, input: { entry: kettle } });
    expect(c.status).toBe("pending");
    const self = await reviewContribution(tdb.db, { id: c.id, reviewerId: ALICE, verdict: "approve", reason: "looks right to me", approvalsRequired: 1 }).catch((e) => e);
    expect(self.code).toBe("conflict");
    expect(self.userMessage).toMatch(/never review or approve their own/);
    expect((await getContribution(tdb.db, c.id, ALICE))?.contribution.status).toBe("pending");
    // A reason is required.
    const noReason = await reviewContribution(tdb.db, { id: c.id, reviewerId: RITA, verdict: "reject", reason: " ", approvalsRequired: 1 }).catch((e) => e);
    expect(noReason.code).toBe("bad_request");
    expect(noReason.details.fieldErrors[0].path).toBe("reason");
  });

  it("state machine: in review, changes requested, resubmitted, approved → published as a new version that queryLibrary returns", async () => {
    const before = await queryLibrary(tdb.db, kettleQuery);
    expect(before.results.find((r) => r.hypothesis === kettle.title)).toBeUndefined();
    const c = await createContribution(tdb.db, { actorId: ALICE, input: { entry: { ...kettle, hidden_reality: "The boil-dry protector tripped." }, domain: "physical" } });
    expect(await markInReview(tdb.db, { id: c.id, reviewerId: ALICE })).toBe(false); // the author opening it changes nothing
    expect(await markInReview(tdb.db, { id: c.id, reviewerId: RITA })).toBe(true);
    const changes = await reviewContribution(tdb.db, { id: c.id, reviewerId: RITA, verdict: "request_changes", reason: "Say why the switch cannot latch.", approvalsRequired: 1 });
    expect(changes.status).toBe("changes_requested");
    // Cannot be reviewed again until resubmitted.
    expect((await reviewContribution(tdb.db, { id: c.id, reviewerId: RUDI, verdict: "approve", reason: "fine", approvalsRequired: 1 }).catch((e) => e)).code).toBe("conflict");
    // Only the author changes it.
    expect((await updateContribution(tdb.db, { id: c.id, actorId: RUDI, input: { entry: kettle } }).catch((e) => e)).code).toBe("forbidden");
    const resubmitted = await updateContribution(tdb.db, { id: c.id, actorId: ALICE, input: { entry: kettle, domain: "physical" } });
    expect(resubmitted.status).toBe("pending");
    const v0 = await version();
    const out = await reviewContribution(tdb.db, { id: c.id, reviewerId: RITA, verdict: "approve", reason: "Clear probe and a safe resolution.", approvalsRequired: 1 });
    expect(out).toMatchObject({ status: "approved", approvals: 1, required: 1, publishedVersion: v0 + 1 });
    expect(out.failureId).toBe(nextId("FM-PHY"));
    const entry = await getEntry(tdb.db, out.failureId!);
    expect(entry).toMatchObject({ title: kettle.title, source: "crowdsourcing", revision: 1, libraryVersion: v0 + 1 });
    const [rev] = await tdb.db.select().from(libraryEntryVersions).where(eq(libraryEntryVersions.failureId, out.failureId!));
    expect(rev).toMatchObject({ authorId: ALICE, reviewerId: RITA, change: "added" });
    const detail = await getContribution(tdb.db, c.id, RUDI);
    expect(detail?.contribution).toMatchObject({ status: "approved", publishedVersion: v0 + 1 });
    expect(detail?.reviews.map((r) => [r.verdict, r.reviewerName])).toEqual([
      ["request_changes", "Rita Reviewer"],
      ["approve", "Rita Reviewer"],
    ]);
    const after = await queryLibrary(tdb.db, kettleQuery);
    expect(after.results[0]).toMatchObject({ failure_id: out.failureId, hypothesis: kettle.title });
    // Final: no more verdicts, no more edits.
    expect((await reviewContribution(tdb.db, { id: c.id, reviewerId: RUDI, verdict: "reject", reason: "late", approvalsRequired: 1 }).catch((e) => e)).code).toBe("conflict");
    expect((await updateContribution(tdb.db, { id: c.id, actorId: ALICE, input: { entry: kettle } }).catch((e) => e)).code).toBe("conflict");
  });

  it("an edit shows a field diff against its target, flags a target changed since, and publishes a new revision", async () => {
    const target = (await getEntry(tdb.db, "FM-SW-0001"))!;
    const { revision: _r, libraryVersion: _v, deprecated: _d, failure_id: _f, ...fields } = target;
    const c = await createContribution(tdb.db, { actorId: ALICE, input: { target_failure_id: "FM-SW-0001", entry: { ...fields, risk_level: "Medium", risk_notes: "High when the binary is a package manager." } } });
    const d = (await getContribution(tdb.db, c.id, RITA))!;
    expect(c).toMatchObject({ kind: "edit", targetFailureId: "FM-SW-0001", baseRevision: target.revision });
    expect(d.diff?.map((x) => x.field).sort()).toEqual(["risk_level", "risk_notes"]);
    expect(d.targetChanged).toBe(false);
    const out = await reviewContribution(tdb.db, { id: c.id, reviewerId: RUDI, verdict: "approve", reason: "Risk depends on the binary.", approvalsRequired: 1 });
    expect(out.failureId).toBe("FM-SW-0001");
    expect((await getEntry(tdb.db, "FM-SW-0001"))).toMatchObject({ risk_level: "Medium", revision: target.revision + 1 });
    // A second edit started from the old revision now shows that the target changed.
    const stale = await createContribution(tdb.db, { actorId: ALICE, input: { target_failure_id: "FM-SW-0001", entry: { ...fields, title: "Binary not on PATH" } } });
    await tdb.db.update(libraryContributions).set({ baseRevision: target.revision }).where(eq(libraryContributions.id, stale.id));
    expect((await getContribution(tdb.db, stale.id, RITA))?.targetChanged).toBe(true);
  });

  it("with two approvals required, one approval keeps it in review, the same reviewer cannot approve twice, the second publishes; a rejection is final", async () => {
    const c = await createContribution(tdb.db, { actorId: ALICE, input: { entry: { ...kettle, title: "Kettle lid switch interlock", surface_symptom: "Kettle will not switch on while the lid stands open a little" } } });
    const one = await reviewContribution(tdb.db, { id: c.id, reviewerId: RITA, verdict: "approve", reason: "looks right", approvalsRequired: 2 });
    expect(one).toMatchObject({ status: "in_review", approvals: 1, required: 2, publishedVersion: null });
    expect((await reviewContribution(tdb.db, { id: c.id, reviewerId: RITA, verdict: "approve", reason: "again", approvalsRequired: 2 }).catch((e) => e)).userMessage).toMatch(/already approved/);
    // Once approved by someone, the author can neither change nor withdraw it.
    expect((await withdrawContribution(tdb.db, { id: c.id, actorId: ALICE }).catch((e) => e)).code).toBe("conflict");
    const two = await reviewContribution(tdb.db, { id: c.id, reviewerId: RUDI, verdict: "approve", reason: "looks right too", approvalsRequired: 2 });
    expect(two).toMatchObject({ status: "approved", approvals: 2 });
    const r = await createContribution(tdb.db, { actorId: ALICE, input: { entry: { ...kettle, title: "Duplicate kettle" } } });
    expect((await reviewContribution(tdb.db, { id: r.id, reviewerId: RITA, verdict: "reject", reason: "Duplicate of the kettle entry.", approvalsRequired: 1 })).status).toBe("rejected");
    expect((await updateContribution(tdb.db, { id: r.id, actorId: ALICE, input: { entry: kettle } }).catch((e) => e)).code).toBe("conflict");
  });

  it("two approvals landing at once publish exactly once", async () => {
    const c = await createContribution(tdb.db, { actorId: ALICE, input: { entry: { ...kettle, title: "Kettle scale on the element", surface_symptom: "Kettle takes twice as long to boil and crackles loudly" } } });
    const v0 = await version();
    const results = await Promise.allSettled([
      reviewContribution(tdb.db, { id: c.id, reviewerId: RITA, verdict: "approve", reason: "looks right", approvalsRequired: 1 }),
      reviewContribution(tdb.db, { id: c.id, reviewerId: RUDI, verdict: "approve", reason: "looks right", approvalsRequired: 1 }),
    ]);
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failed.reason.code).toBe("conflict");
    expect(await version()).toBe(v0 + 1);
    const published = await tdb.db.execute(sql`select count(*)::int as n from library_entries where title = 'Kettle scale on the element'`);
    expect((published[0] as { n: number }).n).toBe(1);
  });

  it("threads comments (a reply names its parent); comments are append-only", async () => {
    const c = await createContribution(tdb.db, { actorId: ALICE, input: { entry: { ...kettle, title: "Kettle threaded" } } });
    const q = await addComment(tdb.db, { id: c.id, authorId: RITA, body: "Which kettles have a boil-dry protector?" });
    const a = await addComment(tdb.db, { id: c.id, authorId: ALICE, body: "All that follow IEC 60335-2-15.", parentId: q.id });
    expect(a.parentId).toBe(q.id);
    const foreign = await addComment(tdb.db, { id: c.id, authorId: ALICE, body: "x", parentId: 999999 }).catch((e) => e);
    expect(foreign.code).toBe("bad_request");
    expect((await getContribution(tdb.db, c.id, RUDI))?.comments.map((k) => [k.authorName, k.parentId])).toEqual([
      ["Rita Reviewer", null],
      ["Alice Contributor", q.id],
    ]);
    expect(await dbError(tdb.db.update(libraryContributionComments).set({ body: "edited" }).where(eq(libraryContributionComments.id, q.id)))).toMatch(/append-only|not allowed|cannot/i);
  });

  it("an orchestrator draft (novel failure) is listed for everyone; a contributor picks it up, completes it and becomes its author; people's drafts stay private", async () => {
    const def = missionDefinitionSchema.parse({ name: "novel", objective: "x", phases: [{ name: "EXECUTION", agents: [{ name: "a", priority: "critical", steps: [{ tool: "shell", args: { command: "frobnicate" } }] }] }] });
    await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "Op" });
    const mission = await createMission(tdb.db, { definition: def, actorId: "user:op" });
    const [draft] = await tdb.db
      .insert(libraryContributions)
      .values({ kind: "new", status: "draft", origin: "novel_failure", authorId: WORKER, missionId: mission.id, seq: 7, entry: { category: "State", surface_symptom: "frobnicate exits 3 with 'quantum flux misaligned'", risk_level: "High", source: "incident_analysis", context_tags: ["shell"] } })
      .returning();
    const mine = await createContribution(tdb.db, { actorId: RITA, input: { entry: { title: "Rita's private draft" }, submit: false } });
    const listed = await listContributions(tdb.db, { viewerId: ALICE, status: "draft" });
    expect(listed.map((c) => c.id)).toContain(draft.id);
    expect(listed.map((c) => c.id)).not.toContain(mine.id);
    expect(await getContribution(tdb.db, mine.id, ALICE)).toBeNull();
    expect((await countContributionsByStatus(tdb.db, RITA)).draft).toBeGreaterThanOrEqual(2);
    // Submitting it incomplete names the missing fields.
    const incomplete = await updateContribution(tdb.db, { id: draft.id, actorId: ALICE, input: { entry: draft.entry as Record<string, unknown> } }).catch((e) => e);
    expect(incomplete.details.fieldErrors.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(["entry.hidden_reality", "entry.diagnostic_probe", "entry.resolution_path"]));
    const done = await updateContribution(tdb.db, {
      id: draft.id,
      actorId: ALICE,
      input: { entry: { ...(draft.entry as Record<string, unknown>), hidden_reality: "The frobnicate calibration file is missing after an upgrade.", diagnostic_probe: "Check that /etc/frob.conf exists.", resolution_path: "Restore /etc/frob.conf from the package and re-run." } },
    });
    expect(done).toMatchObject({ status: "pending", authorId: ALICE, origin: "novel_failure", missionId: mission.id, seq: 7 });
    const d = (await getContribution(tdb.db, draft.id, RITA))!;
    expect(d.comments[0].body).toMatch(/Picked up the draft made by worker test-1 from mission .* \(event 7\)/);
    // Withdraw takes it back to draft; only the author may.
    expect((await withdrawContribution(tdb.db, { id: draft.id, actorId: RITA }).catch((e) => e)).code).toBe("forbidden");
    expect((await withdrawContribution(tdb.db, { id: draft.id, actorId: ALICE })).status).toBe("draft");
    // A novel failure publishes as a software entry.
    await updateContribution(tdb.db, { id: draft.id, actorId: ALICE, input: { entry: { ...(done.entry as Record<string, unknown>) } } });
    expect((await reviewContribution(tdb.db, { id: draft.id, reviewerId: RITA, verdict: "approve", reason: "looks right", approvalsRequired: 1 })).failureId).toBe(nextId("FM-SW"));
  });

  it("proposes a proven learned pattern once (prefilled, incident analysis); an unproven one is refused", async () => {
    const [proven] = await tdb.db.insert(learnedPatterns).values({ when: "api_example_com_rate_limit", then: "wait_and_retry_after", errorType: "rate_limited", tools: ["http"], successes: 4, failures: 0, confidence: 5 / 6 }).returning();
    const [weak] = await tdb.db.insert(learnedPatterns).values({ when: "git_missing", then: "install_missing_dependency", errorType: "command_not_found", successes: 1, failures: 1, confidence: 0.5 }).returning();
    const first = await proposePattern(tdb.db, { patternId: proven.id, actorId: ALICE });
    expect(first.created).toBe(true);
    expect(first.contribution).toMatchObject({ origin: "learned_pattern", patternId: proven.id, status: "draft", authorId: ALICE });
    expect(first.contribution.entry).toMatchObject({ source: "incident_analysis", context_tags: ["rate_limited", "http"], domain: "software" });
    expect((await proposePattern(tdb.db, { patternId: proven.id, actorId: RITA })).contribution.id).toBe(first.contribution.id);
    expect((await proposePattern(tdb.db, { patternId: weak.id, actorId: ALICE }).catch((e) => e)).userMessage).toMatch(/not proven yet: its confidence 50% is below its threshold 80%/);
    // The prefilled draft is complete enough to submit as is.
    const submitted = await updateContribution(tdb.db, { id: first.contribution.id, actorId: ALICE, input: { entry: first.contribution.entry as Record<string, unknown> } });
    expect(submitted.status).toBe("pending");
  });
});
