"use client";

import { useQuery } from "@tanstack/react-query";
import type { CSSProperties } from "react";
import type { HealthReport } from "@/server/health";

/**
 * The console's health banner (FAILURE_MODEL: degraded → a warning, unavailable → a clear error).
 * Polls GET /api/health every 10 s. Healthy: nothing is shown (an empty live region stays, so a
 * change is announced). Colour always comes with an icon and words.
 */

export const HEALTH_POLL_MS = 10_000;
const HEALTH_QUERY_KEY = ["health"] as const;

type HealthAnswer = { kind: "report"; report: HealthReport } | { kind: "unreachable"; message: string };

async function fetchHealth(): Promise<HealthAnswer> {
  let res: Response;
  try {
    res = await fetch("/api/health", { headers: { accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
  } catch {
    return { kind: "unreachable", message: "The console cannot reach the Faultline server. Check that it is running and your network is up; this page keeps retrying." };
  }
  const body = (await res.json().catch(() => null)) as Partial<HealthReport> | null;
  // 503 carries a report too: only a body without one is "unreachable".
  if (!body || typeof body.overall !== "string") {
    return { kind: "unreachable", message: `The health check answered ${res.status} ${res.statusText} without a report. The web process may be restarting.` };
  }
  if (!body.problems) {
    // Signed out (session expired): only the overall verdict is shown to anonymous callers.
    return { kind: "report", report: { ...(body as HealthReport), problems: body.overall === "healthy" ? [] : ["Sign in again to see which component."], llmProviders: {}, workers: null } };
  }
  return { kind: "report", report: body as HealthReport };
}

/** Short names of what is not healthy: "database", "LLM provider “b”", "live updates", "workers". */
export function unhealthyParts(r: HealthReport): string[] {
  const parts: string[] = [];
  const tag = (name: string, status: string) => (status === "healthy" ? null : `${name} (${status.replace("_", " ")})`);
  const add = (x: string | null) => x && parts.push(x);
  add(tag("database", r.database ?? "healthy"));
  add(tag("object storage", r.objectStorage ?? "healthy"));
  for (const [name, p] of Object.entries(r.llmProviders ?? {})) add(tag(`LLM provider “${name}”`, p.status));
  add(tag("live updates", r.websocket ?? "healthy"));
  if (r.workers && r.workers.active === 0) parts.push("workers (none live)");
  return parts;
}

const TONE: Record<"degraded" | "unavailable", { role: "status" | "alert"; icon: string; title: string; color: string; bg: string }> = {
  degraded: { role: "status", icon: "⚠", title: "Degraded", color: "var(--partial)", bg: "var(--partial-bg)" },
  unavailable: { role: "alert", icon: "✕", title: "Unavailable", color: "var(--failed)", bg: "var(--failed-bg)" },
};

export function HealthBanner() {
  const { data } = useQuery({ queryKey: HEALTH_QUERY_KEY, queryFn: fetchHealth, refetchInterval: HEALTH_POLL_MS, refetchIntervalInBackground: true, staleTime: 0, retry: false });

  let level: "degraded" | "unavailable" | null = null;
  let headline = "";
  let lines: string[] = [];
  let checkedAt: string | null = null;
  if (data?.kind === "unreachable") {
    level = "unavailable";
    headline = "Faultline server unreachable.";
    lines = [data.message];
  } else if (data && data.report.overall !== "healthy") {
    const r = data.report;
    level = r.overall === "unavailable" ? "unavailable" : "degraded";
    const parts = unhealthyParts(r);
    const named = parts.length ? parts.join(", ") : "a component (details need a signed-in session)";
    headline = r.overall === "unavailable" ? `${named}. Running missions pause until it recovers.` : `${named}. Missions keep running; watch for failures.`;
    lines = r.problems;
    checkedAt = r.checkedAt;
  }

  if (!level) {
    return <div role="status" aria-live="polite" className="sr-only" data-testid="health-banner" data-level="healthy" />;
  }
  const tone = TONE[level];
  const box: CSSProperties = {
    display: "grid",
    gridTemplateColumns: "auto 1fr",
    gap: "4px 10px",
    alignItems: "start",
    margin: "0 0 16px",
    padding: "10px 14px",
    borderRadius: "var(--radius)",
    border: `1px solid ${tone.color}`,
    borderLeftWidth: 4,
    background: tone.bg,
    color: "var(--text)",
  };
  return (
    <div role={tone.role} aria-live={level === "unavailable" ? "assertive" : "polite"} data-testid="health-banner" data-level={level} style={box}>
      <span aria-hidden="true" style={{ color: tone.color, fontSize: 18, lineHeight: "22px", fontWeight: 700 }}>
        {tone.icon}
      </span>
      <div style={{ minWidth: 0 }}>
        <p style={{ margin: 0, fontWeight: 650, lineHeight: "22px" }}>
          <span style={{ color: tone.color }}>{tone.title}:</span> {headline}
        </p>
        {lines.length > 0 && (
          <ul style={{ margin: "4px 0 0", paddingLeft: 18, fontSize: 13, color: "var(--text-muted)" }}>
            {lines.map((l) => (
              <li key={l} style={{ overflowWrap: "anywhere" }}>
                {l}
              </li>
            ))}
          </ul>
        )}
        {checkedAt && (
          <p style={{ margin: "4px 0 0", fontSize: 12, color: "var(--text-muted)" }}>
            Checked at <time dateTime={checkedAt}>{new Date(checkedAt).toLocaleTimeString()}</time>; rechecked every {HEALTH_POLL_MS / 1000} s.
          </p>
        )}
      </div>
    </div>
  );
}
