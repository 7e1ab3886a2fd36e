import type { FinalStatus, ProposalState, RunState } from "@/lib/mission/types";
import * as ui from "@/components/ui/styles";

/** Status colours always come with an icon and words, never colour alone. */

const RUN: Record<RunState, { icon: string; label: string; tone: string }> = {
  queued: { icon: "○", label: "Queued", tone: "queued" },
  running: { icon: "▶", label: "Running", tone: "running" },
  paused: { icon: "‖", label: "Paused at gate", tone: "paused" },
  completed: { icon: "■", label: "Completed", tone: "neutral" },
  failed: { icon: "■", label: "Ended", tone: "neutral" },
};

const FINAL: Record<FinalStatus, { icon: string; label: string; tone: string }> = {
  SUCCESS: { icon: "✓", label: "SUCCESS", tone: "success" },
  PARTIAL_SUCCESS: { icon: "◐", label: "PARTIAL SUCCESS", tone: "partial" },
  FAILED: { icon: "✕", label: "FAILED", tone: "failed" },
};

const PROPOSAL: Record<ProposalState["status"], { icon: string; label: string; tone: string }> = {
  pending: { icon: "‖", label: "pending", tone: "paused" },
  approved: { icon: "✓", label: "approved", tone: "success" },
  rejected: { icon: "✕", label: "rejected", tone: "failed" },
  // Approved, but not run: the approval expired or the args no longer matched its digest.
  expired: { icon: "⌛", label: "expired", tone: "neutral" },
};

/** A coloured badge that always carries an icon and words; `value` is the machine value tests read. */
export function IconBadge({ icon, label, tone, testId, value, large }: { icon: string; label: string; tone: string; testId: string; value: string; large?: boolean }) {
  return (
    <span className={ui.badge(tone, large ? "lg" : undefined)} data-testid={testId} data-value={value}>
      <span className="text-[11px]" aria-hidden="true">
        {icon}
      </span>
      {label}
    </span>
  );
}

export function RunStateBadge({ runState }: { runState: RunState }) {
  const s = RUN[runState] ?? { icon: "?", label: runState, tone: "neutral" };
  return <IconBadge {...s} testId="run-state" value={runState} />;
}

export function FinalStatusBadge({ status, large }: { status: FinalStatus; large?: boolean }) {
  return <IconBadge {...FINAL[status]} large={large} testId="final-status" value={status} />;
}

/** A proposal's status (pending, approved, rejected, expired); `data-value` is the status. */
export function ProposalStatusBadge({ status }: { status: ProposalState["status"] }) {
  return <IconBadge {...(PROPOSAL[status] ?? { icon: "?", label: status, tone: "neutral" })} testId="proposal-status" value={status} />;
}

/** The run state while a mission runs; once terminal, its derived final status. */
export function MissionStatus({ runState, finalStatus }: { runState: RunState; finalStatus: FinalStatus | null }) {
  if ((runState === "completed" || runState === "failed") && finalStatus) return <FinalStatusBadge status={finalStatus} />;
  return <RunStateBadge runState={runState} />;
}

export function ProgressBar({ value, label }: { value: number; label: string }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div className="flex min-w-[120px] items-center gap-2 max-[1101px]:min-w-[90px] max-[1101px]:gap-[5px]">
      <div className="h-1.5 flex-1 overflow-hidden rounded-full border border-border bg-surface-2" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={label}>
        <div className="h-full bg-accent transition-[width] duration-300 ease-[ease]" style={{ width: `${pct}%` }} />
      </div>
      <span className="min-w-[3.2em] text-right text-sm text-muted tabular-nums max-[1101px]:min-w-[2.6em]">{pct}%</span>
    </div>
  );
}
