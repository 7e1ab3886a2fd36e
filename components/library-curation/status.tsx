import { StatusBadge, type StatusLook } from "../ui/status";

/** A contribution's status and origin in words with an icon (never colour alone). */

const STATUS: Record<string, StatusLook> = {
  draft: { icon: "✎", label: "Draft", tone: "queued" },
  pending: { icon: "○", label: "Pending", tone: "paused" },
  in_review: { icon: "◔", label: "In review", tone: "running" },
  changes_requested: { icon: "↺", label: "Changes requested", tone: "partial" },
  approved: { icon: "✓", label: "Approved", tone: "success" },
  rejected: { icon: "✕", label: "Rejected", tone: "failed" },
};
export const STATUS_LABELS: Record<string, string> = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [k, v.label]));

export const ORIGIN_LABELS: Record<string, string> = { contributor: "Contributor", novel_failure: "Novel failure (mission)", learned_pattern: "Learned pattern", simulation: "Simulation (lab)" };

export function ContributionStatusBadge({ status }: { status: string }) {
  return <StatusBadge looks={STATUS} value={status} testId="contribution-status" />;
}
