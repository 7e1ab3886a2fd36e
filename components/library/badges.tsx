/** Risk, category and source of a library entry in words (colour always comes with words). */

const RISK_TONE: Record<string, { tone: string; icon: string }> = {
  Low: { tone: "success", icon: "○" },
  Medium: { tone: "partial", icon: "◐" },
  High: { tone: "failed", icon: "●" },
  "Requires-Oversight": { tone: "paused", icon: "⚑" },
};

export function RiskBadge({ risk }: { risk: string }) {
  const r = RISK_TONE[risk] ?? { tone: "neutral", icon: "?" };
  return (
    <span className={`badge tone-${r.tone}`} data-testid="risk" data-value={risk}>
      <span className="badge-icon" aria-hidden="true">
        {r.icon}
      </span>
      {risk === "Requires-Oversight" ? "Requires oversight" : risk}
    </span>
  );
}

export const SOURCE_LABEL: Record<string, string> = {
  expert_curation: "Expert curation",
  incident_analysis: "Incident analysis",
  crowdsourcing: "Crowdsourcing",
  simulation_extraction: "Simulation extraction",
};

export function TagList({ tags, max }: { tags: readonly string[]; max?: number }) {
  const shown = max ? tags.slice(0, max) : tags;
  return (
    <span className="lib-tags">
      {shown.map((t) => (
        <span key={t} className="lib-tag">
          {t}
        </span>
      ))}
      {max && tags.length > max ? <span className="muted small">+{tags.length - max}</span> : null}
    </span>
  );
}
