import type { Metadata } from "next";
import { ActorLink } from "@/components/proposals/labels";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { listActorsWithCounts } from "@/db/queries/authority";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { getPrincipal } from "@/server/auth";

export const metadata: Metadata = { title: "Actors" };
export const dynamic = "force-dynamic";

/** FDR-N002: every actor, human, agent or system, with what it proposed and decided. */
export default async function ActorsPage() {
  const user = await getPrincipal();
  if (!user) redirect("/login?callbackUrl=/actors");
  if (!can(user, "mission.view")) return <p className="notice">{describeMissingPermission(user, "mission.view")}</p>;
  const rows = await listActorsWithCounts(getDb());
  return (
    <div className="stack">
      <header className="page-head">
        <div>
          <h1 className="page-title">Actors</h1>
          <p className="muted">Everyone and everything that acts: people (console, CLI), model-driven agents and the system (worker, authority, diagnosis, health). Every event, proposal and decision names one.</p>
        </div>
      </header>
      <div className="table-wrap">
        <table className="table" data-testid="actors-table">
          <thead>
            <tr>
              <th scope="col">Actor</th>
              <th scope="col">Kind</th>
              <th scope="col">Model</th>
              <th scope="col" className="num">
                Proposed
              </th>
              <th scope="col" className="num">
                Approval rate
              </th>
              <th scope="col" className="num">
                Decided
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a.id} data-testid="actor-row">
                <td>
                  <ActorLink id={a.id} name={a.name} />
                  <div className="muted small">{a.id}</div>
                </td>
                <td>
                  <span className="badge tone-neutral">{a.kind}</span>
                </td>
                <td className="small">{a.kind === "agent" ? `${String(a.meta.provider ?? "?")} / ${String(a.meta.model ?? "?")}` : "—"}</td>
                <td className="num">{a.proposed}</td>
                <td className="num" data-testid="actor-approval-rate" title={a.approvalRate === null ? "none of its proposals is decided yet" : `${a.approved} approved, ${a.rejected} rejected`}>
                  {a.approvalRate === null ? "—" : `${Math.round(a.approvalRate * 100)}%`}
                </td>
                <td className="num">{a.decided}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
