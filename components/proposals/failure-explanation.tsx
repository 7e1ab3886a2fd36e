"use client";

import { explainMission } from "@/lib/mission/explain";
import type { MissionState } from "@/lib/mission/types";
import { describeChange } from "./proposals-panel";

/**
 * FDR-N005 at the top of the mission page: why a mission did not succeed (or what it waits for), as
 * structure, with what would change it; and the necessity level's warning. Computed from the state.
 */
export function FailureExplanation({ mission }: { mission: MissionState }) {
  const e = explainMission(mission);
  const x = e.explanation;
  if (!x && !e.level.warning && e.level.effective === 0) return null;
  return (
    <div className="stack-tight" data-testid="failure-explanation">
      {x ? (
        <div className={`result ${mission.runState === "completed" || mission.runState === "failed" ? "result-error" : "result-ok"}`}>
          <p>
            <span className="badge tone-failed" data-testid="failure-reason">
              {e.failureReason}
            </span>{" "}
            <strong>{x.title}</strong>
          </p>
          <p>{x.description}</p>
          {x.counterfactual ? (
            <p className="small" data-testid="explanation-counterfactual">
              <strong>What would change it: </strong>
              {describeChange(x.counterfactual.change)} → {x.counterfactual.expectedOutcome === "success" ? "success" : "a different failure"} ({x.counterfactual.confidence} confidence)
            </p>
          ) : null}
          {x.evidence.length ? (
            <details className="small">
              <summary>Evidence ({x.evidence.length})</summary>
              <pre className="pre-wrap">{JSON.stringify(x.evidence, null, 2)}</pre>
            </details>
          ) : null}
        </div>
      ) : null}
      <p className="small muted" data-testid="necessity-level">
        Necessity level {e.level.effective}
        {e.level.why.length ? `: ${e.level.why.join("; ")}` : ""}
      </p>
      {e.level.warning ? (
        <p className="notice" data-testid="level-warning">
          {e.level.warning}
        </p>
      ) : null}
    </div>
  );
}
