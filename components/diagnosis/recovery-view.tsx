import type { DiagnosisProposalRecord, MissionEvent } from "@/lib/mission/events";
import type { RecoveryPlan } from "@/lib/mission/recovery";
import { describeCall } from "@/lib/mission/failure";
import * as ui from "@/components/ui/styles";

export const pct = (x: number) => `${Math.round(x * 100)}%`;
const words = (s: string) => s.replaceAll("_", " ");

/** A tool call's arguments in one readable line: `sleep 1`, `GET http://…`, `list .`, `re-run with time limit × 2`. */
export function formatArgs(tool: string, args: Record<string, unknown>): string {
  return describeCall(tool, args) ?? JSON.stringify(args);
}

/** Whether a learned pattern chose the plan, with its record. */
export function PatternBadge({ plan }: { plan: RecoveryPlan }) {
  const p = plan.pattern;
  if (plan.source === "pattern" && p) {
    return (
      <span className={ui.badge("success")} data-testid="pattern-used" title={`when ${p.when} → then ${p.then}`}>
        Learned pattern used: {p.successes} success{p.successes === 1 ? "" : "es"}, {p.failures} failure{p.failures === 1 ? "" : "s"}, confidence {pct(p.confidence)}
      </span>
    );
  }
  if (p) return <span className={ui.badge("neutral")}>Learned so far: {p.successes} success{p.successes === 1 ? "" : "es"}, {p.failures} failure{p.failures === 1 ? "" : "s"} (below its {pct(p.threshold)} threshold{p.enabled ? "" : ", disabled"})</span>;
  return <span className={ui.badge("neutral")}>No learned pattern yet</span>;
}

/** What the timeline shows for ADR-0003 recovery events and LLM proposals; null for other events. */
export function RecoveryEventDetails({ event: e }: { event: MissionEvent }) {
  switch (e.type) {
    case "recovery.started":
    case "recovery.fast_path": {
      const { plan, attemptNo, by } = e.payload;
      return (
        <div className={ui.eventDetails} data-testid="recovery-started">
          <p>
            <strong>Recovery attempt {attemptNo}</strong>: {words(plan.strategy)} ({by === "operator" ? "chosen by an operator" : e.type === "recovery.fast_path" ? "fast path" : "applied automatically"}) <PatternBadge plan={plan} />
          </p>
          <ol className="m-0 pl-5 text-sm">
            {plan.steps.map((s, i) => (
              <li key={i}>
                {s.action} <code>{formatArgs(s.tool, s.args)}</code>
              </li>
            ))}
          </ol>
        </div>
      );
    }
    case "recovery.step":
      return (
        <p className={e.payload.ok ? ui.outcome.ok : ui.outcome.error} data-testid="recovery-step">
          {e.payload.ok ? "✓" : "✕"} <code>{formatArgs(e.payload.tool, e.payload.args)}</code>{" "}
          {e.payload.ok ? (e.payload.output ? <span className="text-muted">{e.payload.output}</span> : null) : <span>{e.payload.error?.code}: {e.payload.error?.message}</span>}
        </p>
      );
    case "recovery.finished":
      return (
        <p data-testid="recovery-outcome" className={e.payload.outcome === "succeeded" ? ui.outcome.ok : ui.outcome.error}>
          <strong>{e.payload.outcome === "succeeded" ? "Recovered" : e.payload.outcome === "failed" ? "Recovery failed" : "Recovery abandoned"}</strong> ({words(e.payload.strategy)}, attempt {e.payload.attemptNo}, {e.payload.iterations} tool call{e.payload.iterations === 1 ? "" : "s"})
        </p>
      );
    case "diagnosis.proposal":
      return <ProposalDetails proposal={e.payload.proposal} />;
    default:
      return null;
  }
}

function ProposalDetails({ proposal: p }: { proposal: DiagnosisProposalRecord }) {
  const verdict = { accepted: "Accepted", rejected: "Rejected", invalid: "Invalid", unavailable: "Unavailable" }[p.status];
  return (
    <div className={ui.eventDetails} data-testid="llm-proposal">
      <p>
        <span className={ui.badge(p.status === "accepted" ? "success" : "failed")}>{verdict}</span> LLM proposal{p.proposedBy ? ` by ${p.proposedBy}` : ""}
        {p.proposal ? (
          <>
            : {words(p.proposal.type)} — {p.proposal.rootCause.description} <span className="text-muted">(claimed confidence {pct(p.proposal.rootCause.confidence)}; not self-verified)</span>
          </>
        ) : null}
      </p>
      {p.reasons.length ? (
        <ul className="m-0 pl-5 text-sm">
          {p.reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
