"use client";

import { explainMission } from "@/lib/mission/explain";
import type { MissionState } from "@/lib/mission/types";
import { describeChange } from "./labels";
import * as ui from "@/components/ui/styles";
import type { CounterfactualCheckView } from "@/lib/views/mission-detail";
import { checkOf, CounterfactualCheck } from "./counterfactual-check";

/**
 * FDR-N005 at the top of the mission page: why a mission did not succeed (or what it waits for), as
 * structure, with what would change it; and the necessity level's warning. Computed from the state.
 */
export function FailureExplanation({ mission, checks }: { mission: MissionState; checks?: readonly CounterfactualCheckView[] }) {
  const e = explainMission(mission);
  const x = e.explanation;
  if (!x && !e.level.warning && e.level.effective === 0) return null;
  const ended = mission.runState === "completed" || mission.runState === "failed";
  return (
    <div className="grid gap-2" data-testid="failure-explanation">
      {x ? (
        <div className={ui.cx(ended ? ui.result.error : ui.cx(ui.explanation, "border-l-paused"), "grid gap-2 [&_p]:m-0")} data-kind={x.kind}>
          <p>
            <span className={ui.badge(ended ? "failed" : "paused")} data-testid="failure-reason">
              {e.failureReason}
            </span>{" "}
            <strong data-testid="explanation-title">{x.title}</strong>
          </p>
          <p>{x.description}</p>
          {x.counterfactual ? (
            <p className="text-sm" data-testid="explanation-counterfactual">
              <strong>What would change it: </strong>
              {describeChange(x.counterfactual.change)} → {x.counterfactual.expectedOutcome === "success" ? "success" : "a different failure"} ({x.counterfactual.confidence} confidence)
              <CounterfactualCheck check={checkOf(checks, "mission")} seq={mission.seq} />
            </p>
          ) : null}
          {x.evidence.length ? (
            <details className="text-sm" data-testid="explanation-evidence">
              <summary>Evidence ({x.evidence.length})</summary>
              <ul className="mt-1.5 mb-0 grid gap-[3px] pl-[18px] wrap-anywhere">
                {x.evidence.map((item, i) => (
                  <li key={i}>
                    <code>{item.type}</code>{" "}
                    {Object.entries(item)
                      .filter(([k]) => k !== "type")
                      .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
                      .join(" · ")}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      ) : null}
      <p className="text-sm text-muted" data-testid="necessity-level">
        Necessity level {e.level.effective}
        {e.level.why.length ? `: ${e.level.why.join("; ")}` : ""}
      </p>
      {e.level.warning ? (
        <p className={ui.notice} data-testid="level-warning">
          {e.level.warning}
        </p>
      ) : null}
    </div>
  );
}
