import type { CounterfactualCheckView } from "@/lib/views/mission-detail";
import * as ui from "@/components/ui/styles";

const WORDS = { held: "Holds", did_not_hold: "Does not hold", undetermined: "Not determined" } as const;
const TONES = { held: "success", did_not_hold: "failed", undetermined: "neutral" } as const;

/**
 * What replaying a counterfactual showed (`faultline mission explain ID --verify`, docs/traces.md): held, did
 * not hold, or could not be determined, in the replay's own words. Shown under the counterfactual it judges.
 */
export function CounterfactualCheck({ check, seq }: { check: CounterfactualCheckView | undefined; seq?: number }) {
  if (!check) return null;
  return (
    <span className="mt-0.5 block text-sm" data-testid="counterfactual-check" data-verdict={check.verdict}>
      <span className={ui.badge(TONES[check.verdict])}>{WORDS[check.verdict]}</span> <span className="text-muted">Replayed from the trace{seq !== undefined && check.missionSeq !== seq ? ` at event ${check.missionSeq}` : ""}:</span> {check.summary}
    </span>
  );
}

/** The newest check of a subject (`mission`, `proposal:<id>`). */
export function checkOf(checks: readonly CounterfactualCheckView[] | undefined, subject: string): CounterfactualCheckView | undefined {
  return checks?.find((c) => c.subject === subject);
}
