import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getActorSummary, type ProposalListRow } from "@/db/queries/authority";
import { FailuresOverTime } from "@/components/history/charts";
import { actionLine } from "@/lib/views/state-render";
import { CellsTable, type CellColumn } from "@/components/ui/data-table";
import { Facts } from "@/components/ui/facts";
import { RelativeTime } from "@/components/ui/relative-time";
import { ProposalStatusBadge } from "@/components/ui/status";
import { ActorLink, Decider } from "@/components/proposals/labels";
import { consolePage } from "@/components/layout/console-page";
import * as ui from "@/components/ui/styles";

export const metadata: Metadata = { title: "Actor" };

/** One actor (FDR-N002): what it proposed, how that was decided, its approval rate, its failure reasons over time, what it decided. */
type Props = { params: Promise<{ id: string }> };

export default consolePage({ path: async ({ params }: Props) => `/actors/${(await params).id}`, permission: "mission.view" }, async (_user, { params }: Props) => {
  let id: string;
  try {
    id = decodeURIComponent((await params).id);
  } catch {
    notFound();
  }
  if (id.length > 300) notFound();
  const s = await getActorSummary(getDb(), id);
  if (!s) notFound();
  const days = [...new Set(s.failureReasonsByDay.map((r) => r.day))].sort();
  const reasons = [...new Set(s.failureReasonsByDay.map((r) => r.reason))].sort();
  const counts = days.map((d) => reasons.map((r) => s.failureReasonsByDay.find((x) => x.day === d && x.reason === r)?.count ?? 0));
  const rate = s.proposed.approvalRate;
  return (
    <div className="grid gap-4">
      <nav aria-label="Breadcrumb" className="text-[13px] text-muted">
        <Link href="/actors" className="text-link underline underline-offset-2">
          Actors
        </Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{s.actor.name}</span>
      </nav>
      <header className={ui.cx(ui.card, "grid gap-2.5 px-[18px] py-4 [&>p]:m-0")}>
        <h1 className="text-xl font-[650]">
          {s.actor.name} <span className={ui.badge("neutral")}>{s.actor.kind}</span>
        </h1>
        <p className="text-muted text-sm">{s.actor.id}</p>
        {Object.keys(s.actor.meta).length ? (
          <p className="text-sm">
            {Object.entries(s.actor.meta)
              .map(([k, v]) => `${k}: ${String(v)}`)
              .join(" · ")}
          </p>
        ) : null}
        <Facts
          testId="actor-facts"
          facts={[
            { label: "Proposed", value: s.proposed.total },
            { label: "Approved", value: s.proposed.approved + s.proposed.expired },
            { label: "Rejected", value: s.proposed.rejected },
            { label: "Pending", value: s.proposed.pending },
            { label: "Approval rate", value: rate === null ? "—" : `${Math.round(rate * 100)}%`, testId: "approval-rate" },
            { label: "Decided for others", value: s.decided.total },
          ]}
        />
      </header>
      {s.proposed.total ? <FailuresOverTime id="chart-actor-reasons" title="Rejections of this actor's proposals by failure reason (per day, last 30 days)" noun="rejections" stats={{ bucket: "day", overTime: { buckets: days, types: reasons, counts } }} /> : null}
      <ProposalTable title="What it proposed" rows={s.recent} who="decider" />
      <ProposalTable title="What it decided" rows={s.recentDecisions} who="actor" />
    </div>
  );
});

const PROPOSAL_COLUMNS = (who: "decider" | "actor"): CellColumn[] => [
  { id: "when", header: "When", sortable: true },
  { id: "action", header: "Action", alwaysVisible: true, sortable: true },
  { id: "decision", header: "Decision", sortable: true },
  { id: "who", header: who === "decider" ? "Decided by" : "Proposed by", sortable: true },
  { id: "why", header: "Why", className: "text-sm" },
];

function ProposalTable({ title, rows, who }: { title: string; rows: ProposalListRow[]; who: "decider" | "actor" }) {
  if (!rows.length) return null;
  return (
    <section className="grid gap-2">
      <h2 className="text-[15px] font-[650]">{title}</h2>
      <CellsTable
        label={who === "decider" ? "Its proposals, newest first, with who decided each" : "Its decisions on others' proposals, newest first"}
        urlKey={who === "decider" ? "proposed" : "decided"}
        className={ui.wrappingTable}
        columns={PROPOSAL_COLUMNS(who)}
        rows={rows.map((p) => ({
          key: p.id,
          sort: { when: Date.parse(String(p.submittedAt)), action: actionLine(p.action), decision: p.status, who: who === "actor" ? p.actorName : (p.deciderName ?? null) },
          cells: {
            when: <RelativeTime iso={p.submittedAt} />,
            action: (
              <>
                <code>{actionLine(p.action)}</code>
                {p.decision?.modified ? (
                  <div className="text-sm">
                    Ran with modified args: <code>{actionLine({ tool: p.action.tool, args: p.decision.modified.args })}</code>
                  </div>
                ) : null}
                <div className="text-sm">
                  <Link className="text-link underline underline-offset-2" href={`/missions/${p.missionId}`}>
                    Open its mission
                  </Link>
                </div>
              </>
            ),
            decision: (
              <>
                <ProposalStatusBadge status={p.status} />
                {p.decision?.failureReason ? <div className="text-sm">{p.decision.failureReason}</div> : null}
              </>
            ),
            who: who === "actor" ? <ActorLink id={p.actorId} name={p.actorName} /> : <Decider decision={p.decision} nameOf={() => p.deciderName} />,
            why: p.decision?.reason ?? "",
          },
        }))}
      />
    </section>
  );
}
