"use client";

import type { ProposalState } from "@/lib/mission/types";
import { actionLine } from "@/lib/views/state-render";
import { RelativeTime } from "../ui/relative-time";

const TONE: Record<ProposalState["status"], string> = { approved: "tone-success", rejected: "tone-failed", pending: "tone-paused", expired: "tone-neutral" };

/** Who decided: a person's or reviewer agent's name, or the authority's rule. */
function decider(p: ProposalState, actors: Record<string, string>): string {
  const d = p.decision;
  if (!d) return "—";
  if (d.decidedBy === "system:authority") return `authority (${d.authority})`;
  return actors[d.decidedBy] ?? d.decidedBy;
}

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
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Action</th>
              <th scope="col">Decision</th>
              <th scope="col">Decided by</th>
              <th scope="col" style={{ minWidth: "18rem" }}>
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
                    <strong>{p.agent}</strong>
                    <div className="muted small">{actors[p.actorId] ?? p.actorId}</div>
                  </td>
                  <td>
                    <code className="proposal-action">{actionLine(p.action)}</code>
                    {modified ? (
                      <div className="small" data-testid="proposal-modified">
                        Ran with modified args: <code>{actionLine({ tool: p.action.tool, args: modified.args })}</code>
                      </div>
                    ) : null}
                    <div className="muted small" title={d?.argsDigest ?? p.argsDigest}>
                      digest {(d?.argsDigest ?? p.argsDigest).slice(7, 19)}… · level {p.level}
                      {p.step !== null ? ` · ran as step ${p.step + 1}` : ""}
                    </div>
                  </td>
                  <td>
                    <span className={`badge ${TONE[p.status]}`} data-testid="proposal-status">
                      {p.status}
                    </span>
                    {d?.failureReason ? <div className="small">{d.failureReason}</div> : null}
                    {d?.pendingReason ? <div className="small">{d.pendingReason}</div> : null}
                  </td>
                  <td>
                    {decider(p, actors)}
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

/** A counterfactual change in words. */
export function describeChange(c: NonNullable<NonNullable<ProposalState["decision"]>["counterfactual"]>["change"]): string {
  switch (c.type) {
    case "relax_constraint":
      return `relax ${c.constraint}`;
    case "add_observation":
      return `observe ${typeof c.observation === "string" ? c.observation : JSON.stringify(c.observation)}`;
    case "increase_confidence":
      return `confidence ${c.to}`;
    case "resolve_ambiguity":
      return `resolve ${typeof c.resolution === "string" ? c.resolution : JSON.stringify(c.resolution)}`;
    case "obtain_confirmation":
      return `confirmation from ${c.from}`;
  }
}
