import type { DiagnosisSummary } from "@/lib/mission/types";

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** ADR-0003 diagnosis as people read it: five whys, root cause with confidence, classification, ranked alternatives, the plan. */
export function DiagnosisView({ diagnosis: d }: { diagnosis: DiagnosisSummary }) {
  const ranked = [...d.alternatives].sort((a, b) => b.confidence - a.confidence);
  return (
    <details className="diagnosis" data-testid="diagnosis" open>
      <summary>
        <strong>Diagnosis</strong>: {d.type.replaceAll("_", " ")} · {d.severity.replaceAll("_", " ")} · root cause confidence {pct(d.rootCause.confidence)}
      </summary>
      <div className="diagnosis-body">
        <div>
          <h4>Why it happened</h4>
          <ol className="why-chain">
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
                {s.action} <span className="muted">({s.tool}; expect: {s.expectedOutcome})</span>
              </li>
            ))}
          </ol>
          {d.fallbackChain.length ? <p className="muted small">If that fails: {d.fallbackChain.map((f) => f.replaceAll("_", " ")).join(" → ")}</p> : null}
        </div>
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
