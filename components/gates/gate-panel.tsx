"use client";

import { TechnicalDetails } from "@/components/ui/technical-details";
import { DiagnosisView } from "@/components/diagnosis/diagnosis-view";
import { DiagnosisFeedback } from "@/components/diagnosis/diagnosis-feedback";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState, useTransition, type KeyboardEvent } from "react";
import { decideGateAction } from "@/app/(console)/gates/actions";
import type { GateDecision, GateError } from "@/lib/mission/types";
import { LibraryGateView } from "./library-view";
import { ProposalDecision } from "../proposals/proposal-decision";
import { gateDecisionFor, gateTitle, type GateView } from "@/lib/views/gate-view";
import { whoMayDecide, type Decider } from "@/lib/mission/gate-policy";
import { queryKeys } from "../query-keys";
import { RelativeTime } from "../ui/relative-time";
import * as ui from "@/components/ui/styles";

const OUTCOME: Record<GateDecision, string> = {
  retry: "The agent runs again from its first step.",
  skip: "The mission continues without this agent.",
  abort: "The mission ends FAILED; results so far are kept.",
  retry_phase: "Every agent of the phase runs again.",
  skip_phase: "The mission continues with the next phase.",
  resume: "The interrupted step runs again with the same idempotency key.",
  restart_phase: "The phase restarts from its first agent.",
  approve: "The high-risk step runs now.",
  recover: "The recovery plan runs: its helper steps, then the failed step again.",
  run_probe: "The hypothesis's probe runs now.",
  skip_hypothesis: "The next hypothesis is considered.",
  confirm: "The hypothesis is confirmed; its resolution comes next.",
  reject: "The next hypothesis is considered.",
  done: "The failed step runs again; its evidence decides.",
  not_done: "The next hypothesis is considered.",
  allow_binary: "The binary is allowed for this mission only, and the agent runs again.",
};

const OPTIONS = "m-0 grid list-none gap-2 p-0";
/** An option's row: its button (or name) beside what it does; the recommended one framed. */
const OPTION = "grid items-center gap-3 rounded-md border px-2 py-1.5";

/** The first sentence of an option's description (the option itself, below, says the rest). */
const firstSentence = (s: string) => /^.*?[.!?](?=\s|$)/.exec(s)?.[0] ?? s;

/** An option's keyboard shortcut (gates recorded before shortcuts existed use the first letter). */
const keyOf = (o: { action: string; key?: string }) => o.key ?? o.action[0];

export interface GateDecided {
  gateId: string;
  missionId: string;
  missionName: string;
  agent: string;
  decision: GateDecision;
  /** Approved with modified args (a proposal gate). */
  modified?: boolean;
}

/**
 * One gate, as a UserFacingError: what happened, why, the options (recommended one marked), an optional
 * note and the technical details. With focus on the panel, each option's key chooses it (r / s / a for Retry / Skip / Abort).
 */
export function GatePanel({
  gate,
  canDecide: mayDecideGates,
  viewer,
  showMission = false,
  headingLevel = 3,
  selection,
  onDecided,
  viewOnly,
}: {
  gate: GateView;
  /** The person's permission gate.decide. */
  canDecide: boolean;
  /** The person as gate policies see them (roles, groups); when given, the gate's policy is applied to the buttons too. */
  viewer?: Decider | null;
  showMission?: boolean;
  /** 2 where the panel sits right under the page title (gates inbox), 3 under a section heading. */
  headingLevel?: 2 | 3;
  /** In the decision inbox: the gate's checkbox for a bulk decision (X on the focused panel toggles it). */
  selection?: { selected: boolean; onToggle: () => void; disabled?: boolean };
  onDecided?: (d: GateDecided) => void;
  /** Shown without its decision controls by the page's projection mode (watch: HITL view only), this sentence saying why. */
  viewOnly?: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const [pending, startTransition] = useTransition();
  const [chosen, setChosen] = useState<GateDecision | null>(null);
  const [result, setResult] = useState<{ kind: "ok"; decision: GateDecision; pending: string | null } | { kind: "error"; message: string } | null>(null);
  // The gate's policy (issue 6) may narrow who decides; the server checks again on its own.
  const policyCheck = mayDecideGates && viewer ? gateDecisionFor(gate, viewer) : { canDecide: mayDecideGates, reason: null };
  const canDecide = !viewOnly && mayDecideGates && policyCheck.canDecide;
  const ids = { title: useId(), note: useId(), hint: useId(), select: useId() };
  const err = gate.error;
  // The failure-mode library's hypothesis, on library gates and on the exhausted escalation (lib/mission/library.ts).
  const library = (gate.error as GateError).library ?? null;
  const decided = result?.kind === "ok";
  // A proposal gate can approve with other args (the M key opens the editor).
  const [modifying, setModifying] = useState(false);
  const modifiable = gate.kind === "proposal" && Boolean(gate.proposalId && gate.prompt?.options.some((o) => o.type === "modify"));

  function decide(decision: GateDecision) {
    if (!canDecide || pending || decided || !gate.options.some((o) => o.action === decision)) return;
    setChosen(decision);
    setResult(null);
    startTransition(async () => {
      const r = await decideGateAction({ gateId: gate.id, decision, note: note.trim() || null });
      if (r.status === "ok") {
        const more = r.data.required - r.data.approvals;
        setResult({ kind: "ok", decision, pending: r.data.resolved ? null : `${r.data.approvals} of ${r.data.required} approvals of ${decision}; the gate stays open until ${more} more ${more === 1 ? "person chooses" : "people choose"} it.` });
        onDecided?.({ gateId: gate.id, missionId: gate.missionId, missionName: gate.missionName, agent: gate.agent, decision });
      } else {
        setResult({ kind: "error", message: r.error.message });
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.missions.detail(gate.missionId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.gates.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.missions.list() }),
      ]);
    });
  }

  function onKeyDown(e: KeyboardEvent<HTMLElement>) {
    const t = e.target as HTMLElement;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    // X selects the gate for a bulk decision (also with focus on its checkbox).
    if (selection && e.key.toLowerCase() === "x" && !t.closest("textarea, input:not([type='checkbox']), select, [contenteditable='true']")) {
      e.preventDefault();
      if (!selection.disabled) selection.onToggle();
      return;
    }
    if (t.closest("textarea, input, select, [contenteditable='true'], summary, details[open] pre")) return;
    if (modifiable && canDecide && !decided && e.key.toLowerCase() === "m") {
      e.preventDefault();
      setModifying(true);
      return;
    }
    const option = gate.options.find((o) => keyOf(o) === e.key.toLowerCase());
    if (!option || !canDecide) return;
    e.preventDefault();
    decide(option.action);
  }

  const technical = Object.entries(err.technical ?? {});
  // The gate leads with the truth: what failed (above), then what the diagnosis recommends.
  const recommended = gate.options.find((o) => o.recommended) ?? null;

  return (
    <section
      className={ui.cx("grid gap-3 rounded-md border border-l-4 border-paused bg-surface px-4 py-3.5 shadow-card", selection?.selected && "outline-2 outline-offset-1 outline-accent")}
      tabIndex={0}
      aria-label={`Gate for agent “${gate.agent}” in mission ${gate.missionName}`}
      aria-describedby={canDecide || selection ? ids.hint : undefined}
      onKeyDown={onKeyDown}
      data-testid="gate-panel"
      data-gate-id={gate.id}
      data-selected={selection ? String(selection.selected) : undefined}
    >
      <header className="flex flex-wrap items-center gap-2.5">
        {selection ? (
          <>
            <input id={ids.select} type="checkbox" className="size-4 cursor-pointer accent-accent" checked={selection.selected} onChange={selection.onToggle} disabled={selection.disabled} aria-keyshortcuts="x" data-testid="gate-select" />
            <label htmlFor={ids.select} className="sr-only">
              Select the gate of “{gate.agent}” in mission {gate.missionName} for a bulk decision
            </label>
          </>
        ) : null}
        <span className={ui.badge("paused")}>
          <span className="text-[11px]" aria-hidden="true">
            ‖
          </span>
          Gate open
        </span>
        <Heading id={ids.title} className="text-[15px] font-[650]">
          {showMission ? `${gate.missionName}: ` : ""}
          {gateTitle(gate)}
        </Heading>
        <span className="text-sm text-muted">
          {gate.phase} · opened <RelativeTime iso={gate.openedAt} />
          {showMission ? (
            <>
              {" · "}
              <Link href={`/missions/${gate.missionId}`} className="text-link underline underline-offset-2">
                Mission {gate.missionName}
              </Link>
            </>
          ) : null}
        </span>
      </header>

      <div className="[&>p]:mt-0 [&>p]:mb-1">
        <p>
          <strong>What happened: </strong>
          {err.what}
        </p>
        {err.why ? (
          <p>
            <strong>Why: </strong>
            {err.why}
          </p>
        ) : null}
        {recommended ? (
          <p data-testid="gate-recommended">
            <strong>Recommended: </strong>
            {recommended.label}: <span className="text-muted">{firstSentence(recommended.description)}</span>
          </p>
        ) : null}
        {library ? <LibraryGateView info={library} /> : null}
        {gate.kind === "proposal" && gate.proposalId && gate.prompt ? <ProposalDecision proposalId={gate.proposalId} prompt={gate.prompt} missionId={gate.missionId} canDecide={canDecide && !decided} open={modifying} onOpenChange={setModifying} onApproved={() => onDecided?.({ gateId: gate.id, missionId: gate.missionId, missionName: gate.missionName, agent: gate.agent, decision: "approve", modified: true })} /> : null}
        <GatePolicyLine gate={gate} />
      </div>

      {canDecide ? (
        <>
          <ul className={OPTIONS} aria-label="Options">
            {gate.options.map((o) => (
              <li key={o.action} className={ui.cx(OPTION, "grid-cols-[230px_1fr] max-[1280px]:grid-cols-[170px_1fr]", o.recommended ? "border-accent bg-running-bg" : "border-transparent")}>
                <button
                  type="button"
                  className={ui.cx(ui.button(o.recommended ? "primary" : o.action === "abort" ? "danger" : "secondary"), "w-full justify-between! text-left whitespace-normal!")}
                  onClick={() => decide(o.action)}
                  disabled={pending || decided}
                  aria-keyshortcuts={keyOf(o)}
                  data-testid={`gate-option-${o.action}`}
                >
                  {pending && chosen === o.action ? "Sending…" : o.label}
                  <kbd aria-hidden="true">{keyOf(o).toUpperCase()}</kbd>
                </button>
                <OptionText option={o} />
              </li>
            ))}
          </ul>
          <div className={ui.field}>
            <label htmlFor={ids.note}>{gate.kind === "proposal" ? "Note (optional, recorded with the decision; on Reject, the agent receives it as your reason)" : "Note (optional, recorded with the decision)"}</label>
            <textarea id={ids.note} value={note} onChange={(e) => setNote(e.target.value)} rows={2} maxLength={2000} disabled={pending || decided} placeholder={gate.kind === "proposal" ? "e.g. write to reports/ instead, not the repository root" : "e.g. flaky network, retried after checking the runner"} />
          </div>
          <p id={ids.hint} className="text-muted text-sm">
            Shortcut: with this panel focused, press {gate.options.map((o) => keyOf(o).toUpperCase()).join(" / ")} to choose {gate.options.map((o) => o.label).join(" / ")}
            {modifiable ? ", M to modify the args before approving" : ""}
            {selection ? ", X to select it for a bulk decision" : ""}.
          </p>
        </>
      ) : (
        <>
          <ul className={OPTIONS} aria-label="Options an operator can choose">
            {gate.options.map((o) => (
              <li key={o.action} className={ui.cx(OPTION, "grid-cols-[150px_1fr] border-transparent")}>
                <strong>{o.label}</strong>
                <OptionText option={o} />
              </li>
            ))}
          </ul>
          <p className={ui.notice} data-testid="gate-readonly">
            {viewOnly ?? (mayDecideGates && policyCheck.reason ? policyCheck.reason : "You can view this gate but not resolve it (needs operator or admin).")}
          </p>
          {selection ? (
            <p id={ids.hint} className="text-muted text-sm">
              Shortcut: with this panel focused, press X to select it for a bulk decision (its policy is checked again there).
            </p>
          ) : null}
        </>
      )}

      <div aria-live="polite" role="status">
        {result?.kind === "ok" ? (
          <p className={ui.result.ok} data-testid="gate-result">
            <span aria-hidden="true">✓ </span>
            You chose <strong>{result.decision}</strong>. {result.pending ?? OUTCOME[result.decision]}
          </p>
        ) : null}
      </div>
      {result?.kind === "error" ? (
        <p className={ui.result.error} role="alert" data-testid="gate-error">
          <span aria-hidden="true">✕ </span>
          {result.message}
        </p>
      ) : null}

      {gate.diagnosis ? (
        <>
          <DiagnosisFeedback diagnosisId={gate.diagnosis.id} statedType={gate.diagnosis.type} canGive={mayDecideGates && !viewOnly} />
          <DiagnosisView diagnosis={gate.diagnosis} plan={gate.recoveryPlan} note={gate.recoveryNote} />
        </>
      ) : null}
      <TechnicalDetails entries={[["gate", gate.id], ...technical]} />
    </section>
  );
}

/** Who can decide the gate (its policy, issue 6), the approvals so far and when its timeout decides. */
function GatePolicyLine({ gate }: { gate: GateView }) {
  const p = gate.policy;
  return (
    <div className="mt-2 grid gap-1 rounded-md border border-border bg-surface-2 px-2.5 py-2" data-testid="gate-policy">
      <p className="m-0">
        <strong>Who can decide: </strong>
        <span data-testid="gate-policy-who">{p ? p.summary : whoMayDecide(null)}</span>
        {p ? <span className="text-muted"> (policy for {p.scope})</span> : null}
      </p>
      {gate.deadlineAt && p?.policy.timeoutOutcome ? (
        <p className="m-0" data-testid="gate-deadline">
          <strong>Times out </strong>
          <RelativeTime iso={gate.deadlineAt} /> → the system chooses <strong>{p.policy.timeoutOutcome}</strong>
        </p>
      ) : (
        <p className="m-0 text-muted">No timeout: the gate waits for a decision.</p>
      )}
    </div>
  );
}

/** An option's description, with the recommended one marked. */
function OptionText({ option }: { option: { recommended: boolean; description: string } }) {
  return (
    <div className="flex flex-wrap items-baseline gap-2">
      {option.recommended ? <span className="rounded-full bg-accent px-[7px] py-px text-xs font-bold tracking-[0.04em] text-accent-fg uppercase">Recommended</span> : null}
      <span>{option.description}</span>
    </div>
  );
}
