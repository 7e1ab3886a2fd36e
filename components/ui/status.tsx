import type { FinalStatus, ProposalState, RunState } from "@/lib/mission/types";
import * as ui from "@/components/ui/styles";

/** Status colours always come with an icon and words, never colour alone. */

/** How one status value looks: an icon, words and a tone (a domain's table maps its values to these). */
export interface StatusLook {
  icon: string;
  label: string;
  tone: string;
}

const RUN: Record<RunState, StatusLook> = {
  queued: { icon: "○", label: "Queued", tone: "queued" },
  running: { icon: "▶", label: "Running", tone: "running" },
  paused: { icon: "‖", label: "Paused at gate", tone: "paused" },
  completed: { icon: "■", label: "Completed", tone: "neutral" },
  failed: { icon: "■", label: "Ended", tone: "neutral" },
};

const FINAL: Record<FinalStatus, StatusLook> = {
  SUCCESS: { icon: "✓", label: "SUCCESS", tone: "success" },
  PARTIAL_SUCCESS: { icon: "◐", label: "PARTIAL SUCCESS", tone: "partial" },
  FAILED: { icon: "✕", label: "FAILED", tone: "failed" },
};

const PROPOSAL: Record<ProposalState["status"], StatusLook> = {
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

/** The badge of `value` as its domain's table says; a value the table does not know shows itself, with "?", in neutral. */
export function StatusBadge({ looks, value, testId, large }: { looks: Readonly<Record<string, StatusLook>>; value: string; testId: string; large?: boolean }) {
  return <IconBadge {...(looks[value] ?? { icon: "?", label: value, tone: "neutral" })} large={large} testId={testId} value={value} />;
}

export function RunStateBadge({ runState }: { runState: RunState }) {
  return <StatusBadge looks={RUN} value={runState} testId="run-state" />;
}

export function FinalStatusBadge({ status, large }: { status: FinalStatus; large?: boolean }) {
  return <StatusBadge looks={FINAL} value={status} large={large} testId="final-status" />;
}

/** A proposal's status (pending, approved, rejected, expired); `data-value` is the status. */
export function ProposalStatusBadge({ status }: { status: ProposalState["status"] }) {
  return <StatusBadge looks={PROPOSAL} value={status} testId="proposal-status" />;
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
