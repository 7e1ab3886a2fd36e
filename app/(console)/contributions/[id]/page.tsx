import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getContribution, markInReview } from "@/db/queries/contributions";
import { simulationEvidence } from "@/db/queries/lab";
import { userActorId } from "@/db/queries/users";
import { CommentsThread } from "@/components/library-curation/comments-thread";
import { DiffTable } from "@/components/library-curation/diff-table";
import { EntryView } from "@/components/library/entry-view";
import { ReviewPanel, WithdrawButton } from "@/components/library-curation/review-panel";
import { ContributionStatusBadge, ORIGIN_LABELS } from "@/components/library-curation/status";
import { formatUtc } from "@/components/ui/format-utc";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { env } from "@/lib/env";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { getPrincipal } from "@/server/auth";
import * as ui from "@/components/ui/styles";

export const metadata: Metadata = { title: "Contribution" };
export const dynamic = "force-dynamic";

const VERDICT_WORDS: Record<string, string> = { approve: "✓ approved", request_changes: "↺ requested changes", reject: "✕ rejected" };
/** A review is marked on its left in its verdict's colour (the words say it too). */
const VERDICT_EDGE: Record<string, string> = { approve: "border-l-[3px] border-l-success", request_changes: "border-l-[3px] border-l-partial", reject: "border-l-[3px] border-l-failed" };

export default async function ContributionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await getPrincipal();
  if (!user) redirect(`/login?callbackUrl=/contributions/${id}`);
  if (!can(user, "library.view")) return <p className={ui.notice}>{describeMissingPermission(user, "library.view")}</p>;
  const db = getDb();
  const me = userActorId(user.id);
  const isReviewer = can(user, "library.review");
  // A reviewer (not the author) opening a pending contribution takes it into review.
  if (isReviewer) await markInReview(db, { id, reviewerId: me });
  const d = await getContribution(db, id, me);
  if (!d) notFound();
  const c = d.contribution;
  const evidence = c.origin === "simulation" ? await simulationEvidence(db, c.id) : null;
  const entry = c.entry as Record<string, unknown>;
  const isAuthor = c.authorId === me;
  const pickUp = c.status === "draft" && !c.authorId.startsWith("user:") && can(user, "library.contribute");
  const open = c.status === "pending" || c.status === "in_review";
  const required = env().FAULTLINE_LIBRARY_APPROVALS;
  const title = (entry.title as string) || "Untitled contribution";
  const publishedId = c.status === "approved" ? ((entry.failure_id as string | undefined) ?? c.targetFailureId) : null;

  return (
    <div className="grid gap-4" data-testid="contribution-page" data-status={c.status}>
      <header className="flex items-start justify-between gap-4">
        <div className="grid gap-2">
          <Breadcrumb trail={[{ href: "/contributions", label: "Contributions" }]}>{c.kind === "edit" ? `Edit of ${c.targetFailureId}` : "New entry"}</Breadcrumb>
          <h1 className="text-xl font-[650]" data-testid="contribution-title">
            {title}
          </h1>
          <div className="flex flex-wrap items-center gap-2">
            <ContributionStatusBadge status={c.status} />
            <span className={ui.badge("neutral")}>{c.kind === "edit" ? `Edit of ${c.targetFailureId}` : "New entry"}</span>
            <span className="text-muted text-sm">{ORIGIN_LABELS[c.origin] ?? c.origin}</span>
            <span className="text-muted text-sm">
              by <span data-testid="contribution-author">{c.authorName}</span>, created {formatUtc(c.createdAt)}, updated {formatUtc(c.updatedAt)}
            </span>
          </div>
          {c.variantOf ? (
            <p className="text-sm">
              Marked as a variant of <Link prefetch={false} href={`/library/${c.variantOf}`}>{c.variantOf}</Link>.
            </p>
          ) : null}
          {c.missionId ? (
            <p className="text-sm" data-testid="contribution-mission">
              From a failure in <Link href={`/missions/${c.missionId}`}>mission {c.missionId.slice(0, 8)}</Link>
              {c.seq !== null ? ` (event ${c.seq})` : ""}.
            </p>
          ) : null}
          {c.patternId ? <p className="text-sm">From learned pattern <Link href="/patterns">{c.patternId.slice(0, 8)}</Link>.</p> : null}
          {evidence ? (
            <div className="text-sm" data-testid="contribution-lab-evidence">
              Recurring in lab runs (<code>{evidence.signature}</code>, seen in {evidence.sightingsAtExtraction} runs when drafted).{" "}
              {can(user, "lab.view") ? (
                <>
                  Traces:{" "}
                  {evidence.runs.slice(0, 10).map((r, i) => (
                    <span key={r.trace}>
                      {i ? ", " : ""}
                      <a href={r.trace} download>
                        {r.scenario} #{r.repeat}
                      </a>{" "}
                      (<Link href={`/lab/${r.suiteRunId}`}>{r.suiteName}</Link>)
                    </span>
                  ))}
                  {evidence.runs.length > 10 ? ` and ${evidence.runs.length - 10} more` : ""}.
                </>
              ) : (
                "Its traces are on the Lab page (lab.view)."
              )}
            </div>
          ) : null}
          {c.summary ? <p className={ui.explanation}>{c.summary}</p> : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {(isAuthor && ["draft", "pending", "changes_requested"].includes(c.status)) || pickUp ? (
            <Link className={ui.button("primary")} href={`/contributions/${c.id}/edit`} data-testid="edit-contribution">
              {pickUp ? "Pick up and complete" : c.status === "draft" ? "Edit and submit" : c.status === "changes_requested" ? "Make changes and resubmit" : "Edit"}
            </Link>
          ) : null}
          {isAuthor && ["pending", "in_review", "changes_requested"].includes(c.status) && d.approvals.length === 0 ? <WithdrawButton id={c.id} /> : null}
        </div>
      </header>

      {c.status === "approved" && publishedId ? (
        <p className={ui.result.ok} data-testid="published">
          ✓ Published as <Link prefetch={false} href={`/library/${publishedId}`}>{publishedId}</Link> in library version {c.publishedVersion}.
        </p>
      ) : null}
      {c.status === "changes_requested" && isAuthor ? <p className={ui.banner.warning}>A reviewer asked for changes (see the reviews below). Make them and resubmit.</p> : null}

      {open && isReviewer && isAuthor ? (
        <p className={ui.notice} data-testid="own-contribution">
          You wrote this contribution, so you cannot review or approve it: another reviewer has to decide.
        </p>
      ) : null}
      {open && isReviewer && !isAuthor ? <ReviewPanel id={c.id} approvals={d.approvals.length} required={required} /> : null}

      {c.kind === "edit" && d.target ? (
        <section className="grid gap-2" aria-labelledby="diff-h">
          <h2 id="diff-h" className="text-[15px] font-[650]">
            Proposed changes to {d.target.failure_id}
          </h2>
          {d.targetChanged ? (
            <p className={ui.banner.warning} data-testid="target-changed">
              {d.target.failure_id} has changed since this edit was started (revision {c.baseRevision} → {d.target.revision}): the &ldquo;before&rdquo; column is the current entry. Check that the edit does not undo the newer change.
            </p>
          ) : null}
          <DiffTable before={d.target as unknown as Record<string, unknown>} after={{ ...entry, title: entry.title ?? d.target.title }} />
        </section>
      ) : null}

      <div className={ui.twoCol}>
        <section className="grid gap-2 overflow-x-auto" aria-labelledby="entry-h">
          <h2 id="entry-h" className="text-[15px] font-[650]">
            {c.kind === "edit" ? "The entry after the edit" : "The proposed entry"}
          </h2>
          <EntryView entry={entry} heading={{ failureId: publishedId ?? c.targetFailureId }} />
        </section>
        <div className="grid gap-4">
          <section className="grid gap-2" aria-labelledby="reviews-h" data-testid="reviews">
            <h2 id="reviews-h" className="text-[15px] font-[650]">
              Reviews
            </h2>
            {d.reviews.length === 0 ? (
              <p className="text-muted">No review yet.</p>
            ) : (
              <ol className={ui.thread.list}>
                {d.reviews.map((r) => (
                  <li key={r.id} className={ui.cx(ui.thread.item, VERDICT_EDGE[r.verdict])} data-testid="review" data-verdict={r.verdict}>
                    <div className={ui.thread.head}>
                      <span className="font-semibold">{r.reviewerName}</span> <span>{VERDICT_WORDS[r.verdict]}</span>
                      <span className="text-muted text-sm">{formatUtc(r.createdAt)}</span>
                    </div>
                    <p className={ui.thread.body}>{r.reason}</p>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <CommentsThread contributionId={c.id} comments={d.comments.map((k) => ({ id: k.id, parentId: k.parentId, authorName: k.authorName, body: k.body, createdAt: k.createdAt }))} canComment={can(user, "library.contribute")} />
        </div>
      </div>
    </div>
  );
}
