"use client";

import type { ProposalState } from "@/lib/mission/types";
import { useMemo } from "react";
import { actionLine } from "@/lib/views/state-render";
import { DataTable, type DataColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";
import { ProposalStatusBadge } from "../ui/status";
import { ActorLink, Decider, describeChange } from "./labels";

/**
 * Every proposal of the mission's autonomous agents (seed 002), oldest first, live with the mission page:
 * the action, its args digest, the decision, who decided and why, what would have changed it.
 */
export function ProposalsPanel({ proposals, actors }: { proposals: readonly ProposalState[]; actors: Record<string, string> }) {
  const columns = useMemo<DataColumn<ProposalState>[]>(
    () => [
      {
        id: "agent",
        header: "Agent",
        alwaysVisible: true,
        sortValue: (p) => p.agent,
        cell: (p) => (
          <>
            <strong>
              <ActorLink id={p.actorId} name={p.agent} title={`${actors[p.actorId] ?? p.actorId}: what it proposed, how that was decided`} />
            </strong>
            <div className="text-muted text-sm" style={{ whiteSpace: "nowrap" }}>
              attempt {p.attempt}
            </div>
          </>
        ),
      },
      {
        id: "action",
        header: "Action",
        headerClassName: "min-w-[16rem]",
        cell: (p) => {
          const d = p.decision;
          const modified = d?.modified ?? null;
          return (
            <>
              <code className="[overflow-wrap:anywhere]">{actionLine(p.action)}</code>
              {modified ? (
                <div className="text-sm" data-testid="proposal-modified">
                  Ran with modified args: <code>{actionLine({ tool: p.action.tool, args: modified.args })}</code>
                </div>
              ) : null}
              <div className="text-muted text-sm" title={d?.argsDigest ?? p.argsDigest}>
                digest {(d?.argsDigest ?? p.argsDigest).slice(7, 19)}…{modified ? " (of the modified args)" : ""} · level {p.level}
                {p.step !== null ? ` · ran as step ${p.step + 1}` : ""}
              </div>
            </>
          );
        },
      },
      {
        id: "decision",
        header: "Decision",
        sortValue: (p) => p.status,
        cell: (p) => (
          <>
            <ProposalStatusBadge status={p.status} />
            {p.decision?.failureReason ? <div className="text-sm">{p.decision.failureReason}</div> : null}
            {p.decision?.pendingReason ? <div className="text-sm">{p.decision.pendingReason}</div> : null}
          </>
        ),
      },
      {
        id: "decider",
        header: "Decided by",
        cell: (p) => (
          <>
            <Decider decision={p.decision} nameOf={(a) => actors[a]} />
            {p.decision && p.decision.decision !== "pending" ? (
              <div className="text-muted text-sm">
                <RelativeTime iso={p.decision.decidedAt} />
              </div>
            ) : null}
          </>
        ),
      },
      {
        id: "why",
        header: "Why",
        headerClassName: "min-w-[16rem]",
        cell: (p) => {
          const d = p.decision;
          return (
            <>
              <span>{p.status === "expired" ? (p.outcome ?? d?.reason) : d?.reason}</span>
              {d?.note ? <div className="text-sm">Note: “{d.note}”</div> : null}
              {d?.counterfactual ? (
                <div className="text-sm text-muted" data-testid="proposal-counterfactual">
                  Would change it: {describeChange(d.counterfactual.change)} → {d.counterfactual.expectedOutcome === "success" ? "approved" : "another refusal"} ({d.counterfactual.confidence} confidence)
                </div>
              ) : null}
            </>
          );
        },
      },
    ],
    [actors],
  );
  if (proposals.length === 0) return null;
  return (
    <section aria-labelledby="proposals-title" className="grid gap-2" data-testid="proposals-panel">
      <h2 id="proposals-title" className="text-[15px] font-[650]">
        Proposals <span className="text-muted">({proposals.length}: every action a model chose, decided before it ran)</span>
      </h2>
      <DataTable
        data={proposals}
        columns={columns}
        rowKey={(p) => p.id}
        rowAttrs={(p) => ({ "data-testid": "proposal-row", "data-proposal-id": p.id, "data-status": p.status })}
        label="Proposals of the mission's agents, oldest first"
        testId="proposals-table"
        urlKey="proposals"
        className="[&_code]:[overflow-wrap:anywhere] [&_td_.text-muted]:whitespace-normal"
      />
    </section>
  );
}
