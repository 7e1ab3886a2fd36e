"use client";

import type { ProposalState } from "@/lib/mission/types";
import { useMemo } from "react";
import { actionLine } from "@/lib/views/state-render";
import { DataTable, type DataColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";
import { ProposalStatusBadge } from "../ui/status";
import { ActorLink, Decider, describeChange } from "./labels";
import * as ui from "@/components/ui/styles";
import type { CounterfactualCheckView } from "@/lib/views/mission-detail";
import { checkOf, CounterfactualCheck } from "./counterfactual-check";

/**
 * Every proposal of the mission's autonomous agents (seed 002), oldest first, live with the mission page:
 * the action, its args digest, the decision, who decided and why, what would have changed it.
 */
export function ProposalsPanel({ proposals, actors, checks }: { proposals: readonly ProposalState[]; actors: Record<string, string>; checks?: readonly CounterfactualCheckView[] }) {
  const columns = useMemo<DataColumn<ProposalState>[]>(
    () => [
      { id: "agent", header: "Agent", alwaysVisible: true, sortValue: (p) => p.agent, cell: (p) => <AgentCell p={p} actors={actors} /> },
      { id: "action", header: "Action", headerClassName: WIDE, cell: (p) => <ActionCell p={p} /> },
      { id: "decision", header: "Decision", sortValue: (p) => p.status, cell: (p) => <DecisionCell p={p} /> },
      { id: "decider", header: "Decided by", cell: (p) => <DeciderCell p={p} actors={actors} /> },
      { id: "why", header: "Why", headerClassName: WIDE, cell: (p) => <WhyCell p={p} check={checkOf(checks, `proposal:${p.id}`)} /> },
    ],
    [actors, checks],
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
        rowAttrs={(p) => ({ "data-testid": "proposal-row", "data-proposal-id": p.id, "data-status": p.status })}
        label="Proposals of the mission's agents, oldest first"
        testId="proposals-table"
        urlKey="proposals"
        className={ui.wrappingTable}
      />
    </section>
  );
}

/** The two wide columns (what was proposed, why it was decided so) keep room for a sentence. */
const WIDE = "min-w-[16rem]";
type Actors = Record<string, string>;

/** The agent (a link to all it proposed) and which attempt of its step. */
function AgentCell({ p, actors }: { p: ProposalState; actors: Actors }) {
  return (
    <>
      <strong>
        <ActorLink id={p.actorId} name={p.agent} title={`${actors[p.actorId] ?? p.actorId}: what it proposed, how that was decided`} />
      </strong>
      <div className="text-muted text-sm" style={{ whiteSpace: "nowrap" }}>
        attempt {p.attempt}
      </div>
    </>
  );
}

/** The action as proposed, the modified args it ran with, its args digest, level and step. */
function ActionCell({ p }: { p: ProposalState }) {
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
}

/** The decision's status, and why it failed or waits. */
function DecisionCell({ p }: { p: ProposalState }) {
  return (
    <>
      <ProposalStatusBadge status={p.status} />
      {p.decision?.failureReason ? <div className="text-sm">{p.decision.failureReason}</div> : null}
      {p.decision?.pendingReason ? <div className="text-sm">{p.decision.pendingReason}</div> : null}
    </>
  );
}

/** Who decided, and when. */
function DeciderCell({ p, actors }: { p: ProposalState; actors: Actors }) {
  return (
    <>
      <Decider decision={p.decision} nameOf={(a) => actors[a]} />
      {p.decision && p.decision.decision !== "pending" ? (
        <div className="text-muted text-sm">
          <RelativeTime iso={p.decision.decidedAt} />
        </div>
      ) : null}
    </>
  );
}

/** The decision's reason, the decider's note, and what would have changed it. */
function WhyCell({ p, check }: { p: ProposalState; check: CounterfactualCheckView | undefined }) {
  const d = p.decision;
  return (
    <>
      <span>{p.status === "expired" ? (p.outcome ?? d?.reason) : d?.reason}</span>
      {d?.note ? <div className="text-sm">Note: “{d.note}”</div> : null}
      {d?.counterfactual ? (
        <div className="text-sm text-muted" data-testid="proposal-counterfactual">
          Would change it: {describeChange(d.counterfactual.change)} → {d.counterfactual.expectedOutcome === "success" ? "approved" : "another refusal"} ({d.counterfactual.confidence} confidence)
          <CounterfactualCheck check={check} />
        </div>
      ) : null}
    </>
  );
}
