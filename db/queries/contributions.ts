import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { AuditActor } from "../../lib/audit";
import { AppError } from "../../lib/errors";
import {
  badFields,
  commentInputSchema,
  compact,
  CONTRIBUTION_STATUSES,
  contributionEntrySchema,
  contributionInputSchema,
  DOMAINS,
  fieldErrorsOf,
  guessDomain,
  PREFIX,
  reviewInputSchema,
  validateContributionEntry,
  type CONTRIBUTION_ORIGINS,
  type ContributionEntry,
  type ContributionInput,
  type ContributionStatus,
  type Domain,
  type Verdict,
} from "../../lib/library/contribution";
import { deriveTitle, type LibraryEntry } from "../../lib/library/entry";
import type { Db, Executor, Tx } from "../client";
import { actors, learnedPatterns, libraryContributionComments, libraryContributionReviews, libraryContributions, type LibraryContributionRow } from "../schema";
import { recordAudit } from "./audit-log";
import { getEntry, entryDiff, publishChanges } from "./library";
import { queryLibrary } from "./library-query";

/**
 * Library curation (issue 5): contributors propose a new entry or an edit; reviewers approve, request
 * changes or reject (each with a reason); the last required approval publishes a new library version in
 * the same transaction. One state machine, enforced here (not only in the UI):
 *
 *   draft ──submit──▶ pending ──reviewer opens──▶ in_review
 *   pending | in_review ──request changes──▶ changes_requested ──edit + resubmit──▶ pending
 *   pending | in_review ──reject──▶ rejected (final)
 *   pending | in_review ──approvals reach the required number──▶ approved (final, published)
 *   pending | in_review | changes_requested ──withdraw (author, before any approval)──▶ draft
 *
 * A "round" of review starts at the last request for changes: only approvals given since then count,
 * and the author may change the content only while the current round has no approval.
 */

// ---------------------------------------------------------------------------------------------
// Reads

export interface ContributionListFilter {
  status?: ContributionStatus;
  origin?: (typeof CONTRIBUTION_ORIGINS)[number];
  /** Only this actor's contributions. */
  authorId?: string;
  /** Who is asking: people's drafts are visible to their author only; the orchestrator's drafts to everyone. */
  viewerId: string;
  limit?: number;
}

const draftVisibleTo = (viewerId: string): SQL => or(ne(libraryContributions.status, "draft"), eq(libraryContributions.authorId, viewerId), sql`${libraryContributions.authorId} not like 'user:%'`)!;

export async function listContributions(db: Executor, f: ContributionListFilter) {
  const where = [draftVisibleTo(f.viewerId)];
  if (f.status) where.push(eq(libraryContributions.status, f.status));
  if (f.origin) where.push(eq(libraryContributions.origin, f.origin));
  if (f.authorId) where.push(eq(libraryContributions.authorId, f.authorId));
  const rows = await db
    .select({ c: libraryContributions, authorName: actors.displayName })
    .from(libraryContributions)
    .leftJoin(actors, eq(actors.id, libraryContributions.authorId))
    .where(and(...where))
    .orderBy(desc(libraryContributions.updatedAt))
    .limit(Math.max(1, Math.min(500, f.limit ?? 200)));
  return rows.map((r) => ({ ...r.c, authorName: r.authorName ?? r.c.authorId }));
}

/** Counts per status for the queue's tabs (same visibility as the list). */
export async function countContributionsByStatus(db: Executor, viewerId: string, authorId?: string): Promise<Record<ContributionStatus, number>> {
  const rows = await db
    .select({ status: libraryContributions.status, n: sql<number>`count(*)::int` })
    .from(libraryContributions)
    .where(and(draftVisibleTo(viewerId), authorId ? eq(libraryContributions.authorId, authorId) : undefined))
    .groupBy(libraryContributions.status);
  const out = Object.fromEntries(CONTRIBUTION_STATUSES.map((s) => [s, 0])) as Record<ContributionStatus, number>;
  for (const r of rows) out[r.status] = r.n;
  return out;
}

async function names(db: Executor, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.select({ id: actors.id, name: actors.displayName }).from(actors).where(inArray(actors.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Reviews of the current round: those after the last request for changes. */
function currentRound<T extends { verdict: string }>(reviews: T[]): T[] {
  const last = reviews.map((r) => r.verdict).lastIndexOf("request_changes");
  return reviews.slice(last + 1);
}
const approversOf = (reviews: Array<{ verdict: string; reviewerId: string }>) => [...new Set(currentRound(reviews).filter((r) => r.verdict === "approve").map((r) => r.reviewerId))];

/** One contribution with everything its page shows; null when it does not exist or is someone else's draft. */
export async function getContribution(db: Executor, id: string, viewerId: string) {
  if (!z.guid().safeParse(id).success) return null;
  const [c] = await db.select().from(libraryContributions).where(and(eq(libraryContributions.id, id), draftVisibleTo(viewerId)));
  if (!c) return null;
  const reviews = await db.select().from(libraryContributionReviews).where(eq(libraryContributionReviews.contributionId, id)).orderBy(asc(libraryContributionReviews.id));
  const comments = await db.select().from(libraryContributionComments).where(eq(libraryContributionComments.contributionId, id)).orderBy(asc(libraryContributionComments.id));
  const target = c.targetFailureId ? await getEntry(db, c.targetFailureId) : null;
  const who = await names(db, [c.authorId, ...reviews.map((r) => r.reviewerId), ...comments.map((k) => k.authorId)]);
  const entry = c.entry as Partial<ContributionEntry>;
  const proposed = { ...entry, title: entry.title ?? (entry.hidden_reality ? deriveTitle(entry.hidden_reality) : undefined) };
  return {
    contribution: { ...c, authorName: who.get(c.authorId) ?? c.authorId },
    reviews: reviews.map((r) => ({ ...r, reviewerName: who.get(r.reviewerId) ?? r.reviewerId })),
    comments: comments.map((k) => ({ ...k, authorName: who.get(k.authorId) ?? k.authorId })),
    approvals: approversOf(reviews),
    target,
    /** The target changed since the contributor started from it. */
    targetChanged: !!(target && c.baseRevision !== null && target.revision !== c.baseRevision),
    diff: c.kind === "edit" && target ? entryDiff(target, proposed as LibraryEntry) : null,
  };
}
export type ContributionDetail = NonNullable<Awaited<ReturnType<typeof getContribution>>>;

/**
 * The existing entries most like a draft (the library's own ranking: symptom + tags), so a contributor
 * can see a duplicate before submitting. `abstained`: nothing scores high enough to be a likely match.
 */
export async function similarEntries(db: Db, entry: Partial<ContributionEntry>, limit = 5) {
  const symptom = [entry.surface_symptom, entry.title].filter(Boolean).join(". ").slice(0, 1000);
  if (symptom.trim().length < 3) return { results: [], abstained: true };
  return queryLibrary(db, { observed_symptom: symptom, environmental_context: (entry.context_tags ?? []).slice(0, 30) }, { limit });
}

// ---------------------------------------------------------------------------------------------
// Writes

async function lockContribution(tx: Tx, id: string): Promise<LibraryContributionRow> {
  if (!z.guid().safeParse(id).success) throw new AppError("not_found", { userMessage: `Contribution ${id} does not exist.` });
  const [c] = await tx.select().from(libraryContributions).where(eq(libraryContributions.id, id)).for("update");
  if (!c) throw new AppError("not_found", { userMessage: `Contribution ${id} does not exist.` });
  return c;
}

const isPerson = (actorId: string) => actorId.startsWith("user:");
const STATUS_WORDS: Record<ContributionStatus, string> = { draft: "a draft", pending: "pending review", in_review: "in review", changes_requested: "waiting for the changes a reviewer requested", approved: "approved and published", rejected: "rejected" };

async function targetOf(db: Executor, failureId: string) {
  const target = await getEntry(db, failureId);
  if (!target) throw new AppError("bad_request", { userMessage: `Failure mode ${failureId} does not exist, so there is nothing to edit. Check the id, or propose a new entry instead.`, details: { fieldErrors: [{ path: "target_failure_id", message: "does not exist" }] } });
  return target;
}

async function checkVariant(db: Executor, variantOf: string | null | undefined) {
  if (variantOf && !(await getEntry(db, variantOf))) {
    badFields("The variant is not valid", [{ path: "variant_of", message: `${variantOf} does not exist` }]);
  }
}

/**
 * Creates a contribution by a contributor: a draft, or submitted for review (pending). `audit`: the
 * person or agent contributing, recorded in the same transaction.
 */
export async function createContribution(db: Db, p: { actorId: string; input: ContributionInput; origin?: "contributor" | "learned_pattern"; patternId?: string; audit?: AuditActor }) {
  const input = parseInput(p.input);
  const entry = validateContributionEntry(input.entry, input.submit ? "submit" : "draft");
  const target = input.target_failure_id ? await targetOf(db, input.target_failure_id) : null;
  await checkVariant(db, input.variant_of);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(libraryContributions)
      .values({
        kind: target ? "edit" : "new",
        targetFailureId: target?.failure_id ?? null,
        variantOf: target ? null : (input.variant_of ?? null),
        entry: { ...entry, ...(target ? { failure_id: target.failure_id } : {}), ...(input.domain && !target ? { domain: input.domain } : {}) },
        baseRevision: target?.revision ?? null,
        status: input.submit ? "pending" : "draft",
        origin: p.origin ?? "contributor",
        patternId: p.patternId ?? null,
        authorId: p.actorId,
        summary: input.summary,
      })
      .returning();
    if (p.audit) {
      const what = target ? `an edit of ${target.failure_id}` : p.origin === "learned_pattern" ? "a new entry from a learned pattern" : "a new entry";
      await recordAudit(tx, p.audit, {
        action: "library.contribute",
        summary: `${p.audit.name} proposed ${what} ${contributionName(row)} (${row.status === "pending" ? "submitted for review" : "saved as a draft"}).`,
        target: { type: "contribution", id: row.id },
        after: { status: row.status, kind: row.kind, targetFailureId: row.targetFailureId, ...auditFields(row.entry as Record<string, unknown>) },
      });
    }
    return row;
  });
}

/** A contribution in words for the audit log: its title (or summary) quoted and cut at 40 characters. */
function contributionName(c: { entry: unknown; summary: string | null }): string {
  const e = c.entry as Record<string, unknown> | null;
  const t = String((typeof e?.title === "string" && e.title) || (typeof e?.surface_symptom === "string" && e.surface_symptom) || c.summary || "untitled");
  return `'${t.length > 40 ? `${t.slice(0, 39)}…` : t}'`;
}

/** The entry fields worth keeping in an audit row's before/after (the ones a field diff shows). */
function auditFields(entry: Record<string, unknown> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entry ?? {})) if (v !== undefined && v !== null && v !== "") out[k] = v;
  return out;
}

/** Only the fields that differ between two entries, each side (for an edit's before/after). */
function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const a = auditFields(before);
  const b = auditFields(after);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null));
  return { before: Object.fromEntries(keys.map((k) => [k, a[k] ?? null])), after: Object.fromEntries(keys.map((k) => [k, b[k] ?? null])) };
}

function parseInput(raw: ContributionInput) {
  const r = contributionInputSchema.safeParse(raw);
  if (!r.success) badFields("The contribution is not valid", fieldErrorsOf(r.error, ""));
  return r.data;
}

/**
 * The author changes their contribution (draft, pending without approvals, or changes requested), and
 * submits it (→ pending) or keeps it as a draft. A draft the orchestrator made (its author is not a
 * person) is picked up: whoever completes it becomes its author, and a comment records the hand-over.
 */
export async function updateContribution(db: Db, p: { id: string; actorId: string; input: ContributionInput; audit?: AuditActor }) {
  const input = parseInput(p.input);
  const entry = validateContributionEntry(input.entry, input.submit ? "submit" : "draft");
  await checkVariant(db, input.variant_of);
  return db.transaction(async (tx) => {
    const c = await lockContribution(tx, p.id);
    const pickUp = c.status === "draft" && !isPerson(c.authorId);
    // Someone else's draft is private: it does not exist for anyone but its author.
    if (c.status === "draft" && isPerson(c.authorId) && c.authorId !== p.actorId) throw new AppError("not_found", { userMessage: `Contribution ${c.id} does not exist.` });
    if (c.authorId !== p.actorId && !pickUp) throw new AppError("forbidden", { userMessage: `Only the author of contribution ${c.id} can change it. Comment on it instead, or propose your own edit.` });
    if (!["draft", "pending", "changes_requested"].includes(c.status)) {
      throw new AppError("conflict", { userMessage: `This contribution is ${STATUS_WORDS[c.status]}, so it can no longer be changed. Propose a new contribution instead.` });
    }
    if (c.status === "pending" && (await roundApprovals(tx, c.id)).length) {
      throw new AppError("conflict", { userMessage: "A reviewer has already approved this version, so it cannot change now. Ask the reviewer to request changes if it needs them." });
    }
    if (input.target_failure_id && input.target_failure_id !== c.targetFailureId) {
      badFields("The contribution is not valid", [{ path: "target_failure_id", message: `cannot change: this contribution ${c.targetFailureId ? `edits ${c.targetFailureId}` : "proposes a new entry"}` }]);
    }
    const now = new Date().toISOString();
    const [row] = await tx
      .update(libraryContributions)
      .set({
        entry: { ...entry, ...(c.targetFailureId ? { failure_id: c.targetFailureId } : {}), ...(input.domain && !c.targetFailureId ? { domain: input.domain } : {}) },
        variantOf: c.targetFailureId ? null : (input.variant_of ?? null),
        summary: input.summary,
        status: input.submit ? "pending" : "draft",
        authorId: p.actorId,
        updatedAt: now,
      })
      .where(eq(libraryContributions.id, c.id))
      .returning();
    if (pickUp) {
      const who = await names(tx, [c.authorId]);
      await tx.insert(libraryContributionComments).values({ contributionId: c.id, authorId: p.actorId, body: `Picked up the draft made by ${who.get(c.authorId) ?? c.authorId}${c.missionId ? ` from mission ${c.missionId} (event ${c.seq})` : ""} and became its author.`, createdAt: now });
    }
    if (p.audit) {
      const submitted = row.status === "pending" && c.status !== "pending";
      const diff = changedFields(c.entry as Record<string, unknown>, row.entry as Record<string, unknown>);
      const n = Object.keys(diff.after).length;
      await recordAudit(tx, p.audit, {
        action: submitted ? "library.contribution_submit" : "library.contribution_edit",
        summary: `${p.audit.name} ${submitted ? (c.status === "changes_requested" ? "resubmitted" : "submitted") : "edited"} contribution ${contributionName(row)}${pickUp ? " (picked up the orchestrator's draft)" : ""}${n ? ` (${n} field${n === 1 ? "" : "s"} changed)` : ""}.`,
        target: { type: "contribution", id: c.id },
        before: { status: c.status, ...diff.before },
        after: { status: row.status, ...diff.after },
      });
    }
    return row;
  });
}

async function roundApprovals(tx: Executor, id: string) {
  const reviews = await tx.select().from(libraryContributionReviews).where(eq(libraryContributionReviews.contributionId, id)).orderBy(asc(libraryContributionReviews.id));
  return approversOf(reviews);
}

/** The author takes a submitted contribution back to draft (until a reviewer approves it). */
export async function withdrawContribution(db: Db, p: { id: string; actorId: string; audit?: AuditActor }) {
  return db.transaction(async (tx) => {
    const c = await lockContribution(tx, p.id);
    if (c.authorId !== p.actorId) throw new AppError("forbidden", { userMessage: "Only the author can withdraw a contribution." });
    if (!["pending", "in_review", "changes_requested"].includes(c.status)) throw new AppError("conflict", { userMessage: `This contribution is ${STATUS_WORDS[c.status]}; only a submitted one can be withdrawn.` });
    if ((await roundApprovals(tx, c.id)).length) throw new AppError("conflict", { userMessage: "A reviewer has already approved this contribution, so it can no longer be withdrawn." });
    const [row] = await tx.update(libraryContributions).set({ status: "draft", updatedAt: new Date().toISOString() }).where(eq(libraryContributions.id, c.id)).returning();
    if (p.audit) {
      await recordAudit(tx, p.audit, { action: "library.contribution_edit", summary: `${p.audit.name} withdrew contribution ${contributionName(row)} back to draft.`, target: { type: "contribution", id: c.id }, before: { status: c.status }, after: { status: row.status } });
    }
    return row;
  });
}

/** A reviewer (not the author) opens a pending contribution: it is now in review. Returns whether it changed. */
export async function markInReview(db: Db, p: { id: string; reviewerId: string }): Promise<boolean> {
  if (!z.guid().safeParse(p.id).success) return false;
  const r = await db
    .update(libraryContributions)
    .set({ status: "in_review", updatedAt: new Date().toISOString() })
    .where(and(eq(libraryContributions.id, p.id), eq(libraryContributions.status, "pending"), ne(libraryContributions.authorId, p.reviewerId)))
    .returning({ id: libraryContributions.id });
  return r.length > 0;
}

/** The next free id of a domain (FM-SW-0073 after FM-SW-0072). Call under the library publish lock. */
async function nextFailureId(tx: Tx, domain: Domain): Promise<string> {
  const prefix = PREFIX[domain];
  const [{ n }] = (await tx.execute(sql`select coalesce(max(substring(failure_id from '\\d+$')::int), 0)::int as n from library_entries where failure_id like ${`${prefix}-%`}`)) as Array<{ n: number }>;
  return `${prefix}-${String(n + 1).padStart(4, "0")}`;
}

export interface ReviewOutcome {
  status: ContributionStatus;
  approvals: number;
  required: number;
  publishedVersion: number | null;
  failureId: string | null;
}

/**
 * A reviewer's verdict, with its reason. Never the author's own (refused with 409, whatever their roles).
 * When the approvals of the current round reach `approvalsRequired`, the entry is published as a new
 * library version in this same transaction (the contribution row is locked, so two approvals landing at
 * once publish once).
 */
export async function reviewContribution(db: Db, p: { id: string; reviewerId: string; verdict: Verdict; reason: string; approvalsRequired: number; audit?: AuditActor }): Promise<ReviewOutcome> {
  const { verdict, reason } = (() => {
    const r = reviewInputSchema.safeParse({ verdict: p.verdict, reason: p.reason });
    if (!r.success) badFields("The review is not valid", fieldErrorsOf(r.error, ""));
    return r.data;
  })();
  const required = Math.max(1, Math.floor(p.approvalsRequired));
  return db.transaction(async (tx) => {
    const c = await lockContribution(tx, p.id);
    const outcome = await review(tx, c);
    if (p.audit) {
      const said = { approve: "approved", request_changes: "requested changes to", reject: "rejected" }[verdict];
      const tally = verdict === "approve" ? ` (${outcome.approvals} of ${outcome.required} approval${outcome.required === 1 ? "" : "s"}${outcome.publishedVersion ? `; published library v${outcome.publishedVersion} as ${outcome.failureId}` : ""})` : "";
      await recordAudit(tx, p.audit, {
        action: "library.review",
        summary: `${p.audit.name} ${said} contribution ${contributionName(c)}${tally}: ${reason}`,
        target: { type: "contribution", id: c.id },
        before: { status: c.status },
        after: { status: outcome.status, verdict, reason, approvals: outcome.approvals, required: outcome.required, publishedVersion: outcome.publishedVersion, failureId: outcome.failureId },
      });
    }
    return outcome;
  });

  async function review(tx: Tx, c: LibraryContributionRow): Promise<ReviewOutcome> {
    if (c.authorId === p.reviewerId) {
      throw new AppError("conflict", { userMessage: "You are the author of this contribution: a contributor can never review or approve their own. Another reviewer has to decide." });
    }
    if (c.status !== "pending" && c.status !== "in_review") {
      throw new AppError("conflict", { userMessage: `This contribution is ${STATUS_WORDS[c.status]}, so it cannot be reviewed now${c.status === "changes_requested" ? " (the author has to resubmit it first)" : ""}.` });
    }
    const previous = await roundApprovals(tx, c.id);
    if (verdict === "approve" && previous.includes(p.reviewerId)) {
      throw new AppError("conflict", { userMessage: `You have already approved this contribution; it needs ${required} approvals from different reviewers.` });
    }
    const now = new Date().toISOString();
    await tx.insert(libraryContributionReviews).values({ contributionId: c.id, reviewerId: p.reviewerId, verdict, reason, createdAt: now });
    if (verdict !== "approve") {
      const status = verdict === "reject" ? "rejected" : "changes_requested";
      await tx.update(libraryContributions).set({ status, updatedAt: now }).where(eq(libraryContributions.id, c.id));
      return { status, approvals: 0, required, publishedVersion: null, failureId: c.targetFailureId };
    }
    const approvals = previous.length + 1;
    if (approvals < required) {
      await tx.update(libraryContributions).set({ status: "in_review", updatedAt: now }).where(eq(libraryContributions.id, c.id));
      return { status: "in_review", approvals, required, publishedVersion: null, failureId: c.targetFailureId };
    }
    // The last approval: publish. The library's publish lock first, so the next free id is ours.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('faultline_library_publish'))`);
    const stored = c.entry as Record<string, unknown>;
    const { domain: storedDomain, ...fields } = stored;
    const r = contributionEntrySchema.safeParse(compact({ ...fields, failure_id: undefined }));
    if (!r.success) {
      throw new AppError("conflict", { userMessage: `This contribution cannot be published: ${fieldErrorsOf(r.error, "entry").map((f) => `${f.path} ${f.message}`).join("; ")}. Request changes instead.` });
    }
    if (c.targetFailureId) await targetOf(tx, c.targetFailureId);
    const domain = DOMAINS.includes(storedDomain as Domain) ? (storedDomain as Domain) : guessDomain(r.data, c.origin);
    const failureId = c.targetFailureId ?? (await nextFailureId(tx, domain));
    const entry: LibraryEntry = { ...r.data, failure_id: failureId, title: r.data.title ?? deriveTitle(r.data.hidden_reality) };
    const version = await publishChanges(tx, {
      changes: [{ kind: "upsert", entry }],
      authorId: c.authorId,
      reviewerId: p.reviewerId,
      summary: `${c.kind === "edit" ? `Edit of ${failureId}` : `New entry ${failureId}`} (${entry.title}), contribution ${c.id}, approved by ${[...previous, p.reviewerId].join(", ")}${c.summary ? `: ${c.summary}` : ""}`.slice(0, 1000),
    });
    await tx
      .update(libraryContributions)
      .set({ status: "approved", publishedVersion: version, entry: { ...entry, ...(c.targetFailureId ? {} : { domain }) }, updatedAt: now })
      .where(eq(libraryContributions.id, c.id));
    return { status: "approved", approvals, required, publishedVersion: version, failureId };
  }
}

/** A comment, or a reply to one (threads are one level deep or more: `parentId` names any earlier comment). */
export async function addComment(db: Db, p: { id: string; authorId: string; body: string; parentId?: number | null; audit?: AuditActor }) {
  const r = commentInputSchema.safeParse({ body: p.body, parent_id: p.parentId ?? null });
  if (!r.success) badFields("The comment is not valid", fieldErrorsOf(r.error, ""));
  return db.transaction(async (tx) => {
    const c = await lockContribution(tx, p.id);
    if (c.status === "draft" && isPerson(c.authorId) && c.authorId !== p.authorId) throw new AppError("not_found", { userMessage: `Contribution ${p.id} does not exist.` });
    if (r.data.parent_id) {
      const [parent] = await tx.select({ id: libraryContributionComments.id }).from(libraryContributionComments).where(and(eq(libraryContributionComments.id, r.data.parent_id), eq(libraryContributionComments.contributionId, c.id)));
      if (!parent) badFields("The reply is not valid", [{ path: "parent_id", message: `comment ${r.data.parent_id} is not on this contribution` }]);
    }
    const [row] = await tx.insert(libraryContributionComments).values({ contributionId: c.id, authorId: p.authorId, body: r.data.body, parentId: r.data.parent_id ?? null }).returning();
    await tx.update(libraryContributions).set({ updatedAt: new Date().toISOString() }).where(eq(libraryContributions.id, c.id));
    if (p.audit) {
      await recordAudit(tx, p.audit, {
        action: "library.comment",
        summary: `${p.audit.name} ${row.parentId ? "replied to a comment on" : "commented on"} contribution ${contributionName(c)}.`,
        target: { type: "contribution", id: c.id },
        after: { commentId: row.id, parentId: row.parentId, body: row.body.length > 500 ? `${row.body.slice(0, 499)}…` : row.body },
      });
    }
    return row;
  });
}

/**
 * Issue 4's bridge: a proven learned pattern (confidence at or above its threshold) becomes a contribution
 * (origin learned_pattern, source incident_analysis) prefilled from its trigger, strategy and record.
 * One open contribution per pattern: proposing again returns the existing one.
 */
export async function proposePattern(db: Db, p: { patternId: string; actorId: string; audit?: AuditActor }) {
  if (!z.guid().safeParse(p.patternId).success) throw new AppError("not_found", { userMessage: `Pattern ${p.patternId} does not exist.` });
  const [pat] = await db.select().from(learnedPatterns).where(eq(learnedPatterns.id, p.patternId));
  if (!pat) throw new AppError("not_found", { userMessage: `Pattern ${p.patternId} does not exist.` });
  if (pat.confidence < pat.threshold) {
    throw new AppError("conflict", { userMessage: `This pattern is not proven yet: its confidence ${Math.round(pat.confidence * 100)}% is below its threshold ${Math.round(pat.threshold * 100)}%. Propose it once more recoveries have succeeded.` });
  }
  const [open] = await db
    .select()
    .from(libraryContributions)
    .where(and(eq(libraryContributions.patternId, pat.id), inArray(libraryContributions.status, ["draft", "pending", "in_review", "changes_requested"])));
  if (open) return { contribution: open, created: false };
  const words = (s: string) => s.replaceAll("_", " ");
  const attempts = pat.successes + pat.failures;
  const entry = {
    title: `${words(pat.errorType)}: ${words(pat.then)}`.slice(0, 80),
    category: "State",
    surface_symptom: `A ${pat.tools.join("/") || "tool"} step fails with ${words(pat.errorType)} (${words(pat.when)}).`.slice(0, 400),
    hidden_reality: `A recurring ${words(pat.errorType)} condition that the recovery "${words(pat.then)}" resolves: learned from ${attempts} recoveries (${pat.successes} succeeded, ${pat.failures} failed).`.slice(0, 1000),
    diagnostic_probe: `Check that the failure matches the learned trigger "${words(pat.when)}" (same error type and tool) before applying the strategy.`.slice(0, 1000),
    resolution_path: `Apply "${words(pat.then)}", then re-run the failed step and check its evidence.`.slice(0, 1000),
    risk_level: "Medium",
    risk_notes: `Confidence ${Math.round(pat.confidence * 100)}% (successes + 1) / (attempts + 2) over ${attempts} attempts.`,
    context_tags: [...new Set([pat.errorType, ...pat.tools].map((t) => t.toLowerCase().replace(/[^a-z0-9_.+-]/g, "-").slice(0, 40)).filter((t) => /^[a-z0-9]/.test(t)))].slice(0, 20),
    references: [`Learned pattern ${pat.id}${pat.lastMissionId ? `, last seen in mission ${pat.lastMissionId}` : ""}`],
    source: "incident_analysis",
  };
  const contribution = await createContribution(db, { actorId: p.actorId, audit: p.audit, origin: "learned_pattern", patternId: pat.id, input: { entry, domain: "software", submit: false, summary: `From learned pattern "${pat.when} → ${pat.then}".` } });
  return { contribution, created: true };
}
