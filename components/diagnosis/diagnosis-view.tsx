import type { DiagnosisSummary } from "@/lib/mission/types";
import type { RecoveryPlan } from "@/lib/mission/recovery";
import { formatArgs, pct, PatternBadge } from "./recovery-view";

/**
 * ADR-0003 diagnosis as people read it: five whys, root cause with confidence, classification, ranked
 * alternatives, the plan and its fallback chain; at a gate also the recovery offered (and whether a
 * learned pattern chose it) and why nothing was applied automatically.
 */
export function DiagnosisView({ diagnosis: d, plan, note, open = true }: { diagnosis: DiagnosisSummary; plan?: RecoveryPlan | null; note?: string | null; open?: boolean }) {
  const ranked = [...d.alternatives].sort((a, b) => b.confidence - a.confidence);
  return (
    <details className="rounded-md border border-border bg-surface-2 px-3 py-2 text-[13.5px] [&_h4]:mt-0 [&_h4]:mb-1 [&_h4]:text-[13px] [&_ol]:m-0 [&_ol]:pl-5 [&_ul]:m-0 [&_ul]:pl-5" data-testid="diagnosis" open={open}>
      <summary className="cursor-pointer">
        <strong>Diagnosis</strong>: {d.type.replaceAll("_", " ")} · {d.severity.replaceAll("_", " ")} · root cause confidence {pct(d.rootCause.confidence)}
      </summary>
      <div className="mt-2 grid gap-2">
        <div>
          <h4>Why it happened</h4>
          <ol className="[&>li]:my-0.5">
            {d.whyChain.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ol>
        </div>
        <p>
          <strong>Root cause</strong> ({d.rootCause.category.replaceAll("_", " ")}, confidence {pct(d.rootCause.confidence)}): {d.rootCause.description}
        </p>
        <div>
          <h4>Recovery plan: {d.recoveryStrategy.replaceAll("_", " ")}</h4>
          <ol>
            {d.recoverySteps.map((s, i) => (
              <li key={i}>
                {s.action}{" "}
                <span className="text-muted">
                  ({s.tool === "retry" ? "the failed step" : s.tool}
                  {s.args && (s.tool === "retry" || Object.keys(s.args).length) ? <code className="text-sm"> {formatArgs(s.tool, s.args)}</code> : null}; expect: {s.expectedOutcome})
                </span>
              </li>
            ))}
          </ol>
          {d.fallbackChain.length ? <p className="text-muted text-sm">If that fails: {d.fallbackChain.map((f) => f.replaceAll("_", " ")).join(" → ")}</p> : null}
        </div>
        {plan || note ? (
          <div className="border-t border-border pt-1.5 [&_p]:mt-0 [&_p]:mb-1" data-testid="recovery-offer">
            <h4>Recovery</h4>
            {plan ? (
              <p>
                Offered: <strong>{plan.strategy.replaceAll("_", " ")}</strong> — {plan.description}. <PatternBadge plan={plan} />
              </p>
            ) : null}
            {note ? <p className="text-muted">{note}</p> : null}
          </div>
        ) : null}
        <div>
          <h4>Alternatives</h4>
          <ul>
            {ranked.map((a) => (
              <li key={a.strategy}>
                <strong>{a.strategy.replaceAll("_", " ")}</strong> ({pct(a.confidence)}): {a.description}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </details>
  );
}
