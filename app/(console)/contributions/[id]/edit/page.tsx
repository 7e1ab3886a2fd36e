import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getContribution } from "@/db/queries/contributions";
import { userActorId } from "@/db/queries/users";
import { ContributionForm } from "@/components/library-curation/contribution-form";
import { formFromEntry } from "@/components/library-curation/form-model";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { getPrincipal } from "@/server/auth";
import * as ui from "@/components/ui/styles";

export const metadata: Metadata = { title: "Edit contribution" };
export const dynamic = "force-dynamic";

/** The author changes their contribution; a contributor completes (picks up) an orchestrator's draft. */
export default async function EditContributionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await getPrincipal();
  if (!user) redirect(`/login?callbackUrl=/contributions/${id}/edit`);
  if (!can(user, "library.contribute")) return <p className={ui.notice}>{describeMissingPermission(user, "library.contribute")}</p>;
  const me = userActorId(user.id);
  const d = await getContribution(getDb(), id, me);
  if (!d) notFound();
  const c = d.contribution;
  const pickUp = c.status === "draft" && !c.authorId.startsWith("user:");
  const editable = (c.authorId === me || pickUp) && ["draft", "pending", "changes_requested"].includes(c.status);
  const entry = c.entry as Record<string, unknown>;
  return (
    <div className="grid gap-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <Breadcrumb
            trail={[
              { href: "/contributions", label: "Contributions" },
              { href: `/contributions/${c.id}`, label: (entry.title as string) || "Untitled" },
            ]}
          >
            Edit
          </Breadcrumb>
          <h1 className="text-xl font-[650]">{pickUp ? "Complete this draft" : c.targetFailureId ? `Edit your proposal for ${c.targetFailureId}` : "Edit your contribution"}</h1>
          {pickUp ? (
            <p className="text-muted" data-testid="pickup-note">
              Made by {c.authorName}
              {c.missionId ? (
                <>
                  {" "}from a failure in <Link href={`/missions/${c.missionId}`}>mission {c.missionId.slice(0, 8)}</Link> (event {c.seq})
                </>
              ) : null}
              . When you save it, you become its author (recorded in its comments).
            </p>
          ) : null}
        </div>
      </header>
      {editable ? (
        <ContributionForm contributionId={c.id} targetFailureId={c.targetFailureId} initial={formFromEntry(entry)} initialVariantOf={c.variantOf} initialDomain={(entry.domain as "physical" | "software" | undefined) ?? null} initialSummary={c.summary} />
      ) : (
        <p className={ui.notice} data-testid="not-editable">
          {c.authorId !== me && !pickUp ? "Only its author can change this contribution; you can comment on it." : "This contribution can no longer be changed (it is approved, rejected or in review)."} <Link href={`/contributions/${c.id}`}>Back to it</Link>.
        </p>
      )}
    </div>
  );
}
