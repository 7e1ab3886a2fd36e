"use client";

import type { ProposalState } from "@/lib/mission/types";
import { actionLine } from "@/lib/views/state-render";
import { RelativeTime } from "../ui/relative-time";
import { ProposalStatusBadge } from "../ui/status";
import { ActorLink, Decider, describeChange } from "./labels";

/**
 * Every proposal of the mission's autonomous agents (seed 002), oldest first, live with the mission page:
 * the action, its args digest, the decision, who decided and why, what would have changed it.
 */
export function ProposalsPanel({ proposals, actors }: { proposals: readonly ProposalState[]; actors: Record<string, string> }) {
  if (proposals.length === 0) return null;
  return (
    <section aria-labelledby="proposals-title" className="stack-tight" data-testid="proposals-panel">
      <h2 id="proposals-title" className="section-title">
        Proposals <span className="muted">({proposals.length}: every action a model chose, decided before it ran)</span>
      </h2>
      <div className="table-wrap">
        <table className="table proposals-table">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col" style={{ minWidth: "16rem" }}>
                Action
              </th>
              <th scope="col">Decision</th>
              <th scope="col">Decided by</th>
              <th scope="col" style={{ minWidth: "16rem" }}>
                Why
              </th>
            </tr>
          </thead>
          <tbody>
            {proposals.map((p) => {
              const d = p.decision;
              const modified = d?.modified ?? null;
              return (
                <tr key={p.id} data-testid="proposal-row" data-proposal-id={p.id} data-status={p.status}>
                  <td>
                    <strong>
                      <ActorLink id={p.actorId} name={p.agent} title={`${actors[p.actorId] ?? p.actorId}: what it proposed, how that was decided`} />
                    </strong>
                    <div className="muted small" style={{ whiteSpace: "nowrap" }}>
                      attempt {p.attempt}
                    </div>
                  </td>
                  <td>
                    <code className="proposal-action">{actionLine(p.action)}</code>
                    {modified ? (
                      <div className="small" data-testid="proposal-modified">
                        Ran with modified args: <code>{actionLine({ tool: p.action.tool, args: modified.args })}</code>
                      </div>
                    ) : null}
                    <div className="muted small" title={d?.argsDigest ?? p.argsDigest}>
                      digest {(d?.argsDigest ?? p.argsDigest).slice(7, 19)}…{modified ? " (of the modified args)" : ""} · level {p.level}
                      {p.step !== null ? ` · ran as step ${p.step + 1}` : ""}
                    </div>
                  </td>
                  <td>
                    <ProposalStatusBadge status={p.status} />
                    {d?.failureReason ? <div className="small">{d.failureReason}</div> : null}
                    {d?.pendingReason ? <div className="small">{d.pendingReason}</div> : null}
                  </td>
                  <td>
                    <Decider decision={d} nameOf={(a) => actors[a]} />
                    {d && d.decision !== "pending" ? (
                      <div className="muted small">
                        <RelativeTime iso={d.decidedAt} />
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <span>{p.status === "expired" ? (p.outcome ?? d?.reason) : d?.reason}</span>
                    {d?.note ? <div className="small">Note: “{d.note}”</div> : null}
                    {d?.counterfactual ? (
                      <div className="small muted" data-testid="proposal-counterfactual">
                        Would change it: {describeChange(d.counterfactual.change)} → {d.counterfactual.expectedOutcome === "success" ? "approved" : "another refusal"} ({d.counterfactual.confidence} confidence)
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
