import { IconBadge } from "../ui/status";

/** A contribution's status and origin in words with an icon (never colour alone). */

const STATUS: Record<string, { icon: string; label: string; tone: string }> = {
  draft: { icon: "✎", label: "Draft", tone: "queued" },
  pending: { icon: "○", label: "Pending", tone: "paused" },
  in_review: { icon: "◔", label: "In review", tone: "running" },
  changes_requested: { icon: "↺", label: "Changes requested", tone: "partial" },
  approved: { icon: "✓", label: "Approved", tone: "success" },
  rejected: { icon: "✕", label: "Rejected", tone: "failed" },
};
export const STATUS_LABELS: Record<string, string> = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [k, v.label]));

export const ORIGIN_LABELS: Record<string, string> = { contributor: "Contributor", novel_failure: "Novel failure (mission)", learned_pattern: "Learned pattern" };

export function ContributionStatusBadge({ status }: { status: string }) {
  const s = STATUS[status] ?? { icon: "?", label: status, tone: "neutral" };
  return <IconBadge {...s} testId="contribution-status" value={status} />;
}
