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
  return (
    <span className={`badge tone-${s.tone}`} data-testid="contribution-status" data-value={status}>
      <span className="badge-icon" aria-hidden="true">
        {s.icon}
      </span>
      {s.label}
    </span>
  );
}

const RISK_TONE: Record<string, string> = { Low: "success", Medium: "partial", High: "failed", "Requires-Oversight": "paused" };
export function RiskBadge({ risk }: { risk: string | undefined }) {
  if (!risk) return <span className="muted">risk not set</span>;
  return <span className={`badge tone-${RISK_TONE[risk] ?? "neutral"}`}>{risk === "Requires-Oversight" ? "⚠ Requires oversight" : `${risk} risk`}</span>;
}

/** A database or ISO timestamp as "YYYY-MM-DD HH:MM UTC" (same on server and browser). */
export function utc(ts: string): string {
  const iso = ts.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00");
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? ts : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
