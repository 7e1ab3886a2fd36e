import { StatusBadge, type StatusLook } from "../ui/status";
import { Pills } from "../ui/pills";

/** Risk, category and source of a library entry in words (colour always comes with words). */

const RISK: Record<string, StatusLook> = {
  Low: { tone: "success", icon: "○", label: "Low" },
  Medium: { tone: "partial", icon: "◐", label: "Medium" },
  High: { tone: "failed", icon: "●", label: "High" },
  "Requires-Oversight": { tone: "paused", icon: "⚑", label: "Requires oversight" },
};

/** The one risk badge of the console (library, curation): words and an icon, never colour alone. */
export function RiskBadge({ risk }: { risk: string }) {
  return <StatusBadge looks={RISK} value={risk} testId="risk" />;
}

export const SOURCE_LABEL: Record<string, string> = {
  expert_curation: "Expert curation",
  incident_analysis: "Incident analysis",
  crowdsourcing: "Crowdsourcing",
  simulation_extraction: "Simulation extraction",
};

export function TagList({ tags, max }: { tags: readonly string[]; max?: number }) {
  return <Pills items={tags} look="tag" max={max} />;
}
