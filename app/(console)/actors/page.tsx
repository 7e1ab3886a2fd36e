import type { Metadata } from "next";
import { ActorLink } from "@/components/proposals/labels";
import { getDb } from "@/db/client";
import { CellsTable, type CellColumn } from "@/components/ui/data-table";
import { listActorsWithCounts } from "@/db/queries/authority";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Actors" };

const COLUMNS: CellColumn[] = [
  { id: "actor", header: "Actor", alwaysVisible: true, sortable: true },
  { id: "kind", header: "Kind", sortable: true },
  { id: "model", header: "Model", className: "text-sm", sortable: true },
  { id: "proposed", header: "Proposed", numeric: true, sortable: true },
  { id: "rate", header: "Approval rate", numeric: true, sortable: true },
  { id: "decided", header: "Decided", numeric: true, sortable: true },
];

/** FDR-N002: every actor, human, agent or system, with what it proposed and decided. */
export default consolePage({ path: "/actors", permission: "mission.view" }, async () => {
  const rows = await listActorsWithCounts(getDb());
  return (
    <Page
      title="Actors"
      intro="Everyone and everything that acts: people (console, CLI), model-driven agents and the system (worker, authority, diagnosis, health). Every event, proposal and decision names one."
    >
      <CellsTable
        label="Actors"
        testId="actors-table"
        columns={COLUMNS}
        empty="No actor has acted yet."
        rows={rows.map((a) => ({
          key: a.id,
          attrs: { "data-testid": "actor-row" },
          sort: { actor: a.name, rate: a.approvalRate, model: a.kind === "agent" ? `${String(a.meta.provider ?? "?")} / ${String(a.meta.model ?? "?")}` : null },
          cellAttrs: { rate: { "data-testid": "actor-approval-rate", title: a.approvalRate === null ? "none of its proposals is decided yet" : `${a.approved} approved, ${a.rejected} rejected` } },
          cells: {
            actor: (
              <>
                <ActorLink id={a.id} name={a.name} />
                <div className="text-muted text-sm">{a.id}</div>
              </>
            ),
            kind: <span className={ui.badge("neutral")}>{a.kind}</span>,
            model: a.kind === "agent" ? `${String(a.meta.provider ?? "?")} / ${String(a.meta.model ?? "?")}` : "—",
            proposed: a.proposed,
            rate: a.approvalRate === null ? "—" : `${Math.round(a.approvalRate * 100)}%`,
            decided: a.decided,
          },
        }))}
      />
    </Page>
  );
});
