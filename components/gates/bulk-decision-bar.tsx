"use client";

import { useId, useState } from "react";
import Link from "next/link";
import { ConfirmButton } from "@/components/ui/dialog";
import type { GateView } from "@/lib/views/gate-view";
import type { GateDecision } from "@/lib/mission/types";
import * as ui from "@/components/ui/styles";

/** A decision's name in the bulk bar (the gates' own labels differ per gate: "Allow scp and retry"). */
export const DECISION_LABEL: Record<GateDecision, string> = {
  approve: "Approve",
  reject: "Reject",
  abort: "Abort",
  retry: "Retry",
  skip: "Skip",
  retry_phase: "Retry phase",
  skip_phase: "Skip phase",
  resume: "Resume",
  restart_phase: "Restart phase",
  recover: "Apply recovery plan",
  run_probe: "Run the probe",
  skip_hypothesis: "Skip this hypothesis",
  confirm: "Confirm",
  done: "Done",
  not_done: "Not done",
  allow_binary: "Allow the refused binary and retry",
};

/** Always in the bar (a gate that does not offer one is refused for it); others only when every selected gate offers them. */
const BASE: GateDecision[] = ["approve", "reject", "abort"];

/** The decisions the bar offers for these gates, each with how many of them offer it. */
export function bulkChoices(gates: GateView[]): Array<{ decision: GateDecision; offeredBy: number }> {
  const count = (d: GateDecision) => gates.filter((g) => g.options.some((o) => o.action === d)).length;
  const common = gates.length ? gates[0].options.map((o) => o.action).filter((d) => !BASE.includes(d) && count(d) === gates.length) : [];
  return [...BASE, ...common].map((decision) => ({ decision, offeredBy: count(decision) }));
}

/** One item's outcome as the server reported it, with the words to show for the gate it was. */
export interface BulkOutcome {
  gateId: string;
  missionId: string;
  missionName: string;
  agent: string;
  ok: boolean;
  decision: GateDecision;
  /** ok: "resolved" or "approval_recorded" (N-of-M); refused: the server's reason. */
  status?: "resolved" | "approval_recorded";
  approvals?: number;
  required?: number;
  message?: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The bulk bar of the decision inbox: with one or more gates selected, one decision, one note and Decide
 * (behind a confirmation). Each gate is then decided on its own by the server; the results list says
 * which were decided and why any were refused.
 */
export function BulkDecisionBar({ gates, pending, onDecide, onClear }: { gates: GateView[]; pending: boolean; onDecide: (decision: GateDecision, note: string | null) => void; onClear: () => void }) {
  const ids = { title: useId(), note: useId(), radio: useId() };
  const [choice, setChoice] = useState<GateDecision | null>(null);
  const [note, setNote] = useState("");
  const choices = bulkChoices(gates);
  // A decision no longer in the list (the selection changed) is no choice.
  const decision = choice && choices.some((c) => c.decision === choice) ? choice : null;
  const offeredBy = choices.find((c) => c.decision === decision)?.offeredBy ?? 0;
  const n = gates.length;
  const proposals = gates.filter((g) => g.kind === "proposal").length;
  const needsNote = decision === "reject" && proposals > 0 && !note.trim();
  const label = decision ? DECISION_LABEL[decision] : "";

  return (
    <section className={ui.cx(ui.panel, "sticky top-0 z-10")} aria-labelledby={ids.title} data-testid="bulk-bar">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={ids.title} className="m-0 text-[15px] font-[650]">
          Decide {plural(n, "selected gate")} at once
        </h2>
        <button type="button" className={ui.button("ghost", "sm")} onClick={onClear} disabled={pending} data-testid="bulk-clear">
          Clear selection
        </button>
      </div>
      <p className="m-0 text-sm text-muted">Each gate is decided on its own, with this note: its own audited decision, checked against its own policy. Gates that do not offer the decision, were decided meanwhile or whose policy refuses you are reported and stay as they are.</p>
      <fieldset className={ui.fieldset}>
        <legend className="text-[13px] font-[550]">Decision</legend>
        <div className="flex flex-wrap gap-x-1 gap-y-1.5">
          {choices.map((c) => (
            <label key={c.decision} className={ui.cx("inline-flex cursor-pointer items-center gap-1.5 rounded-md border px-2.5 py-1 text-[13.5px]", decision === c.decision ? "border-accent bg-running-bg" : "border-border")} data-testid={`bulk-decision-${c.decision}`}>
              <input type="radio" className="accent-accent" name={ids.radio} value={c.decision} checked={decision === c.decision} onChange={() => setChoice(c.decision)} disabled={pending} />
              {DECISION_LABEL[c.decision]}
              <span className="text-sm text-muted">{c.offeredBy === n ? (n === 1 ? "offered" : `all ${n}`) : `${c.offeredBy} of ${n}`}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className={ui.field}>
        <label htmlFor={ids.note}>Note (optional, recorded with each decision; on Reject, a proposal&apos;s agent receives it as your reason)</label>
        <textarea id={ids.note} value={note} onChange={(e) => setNote(e.target.value)} rows={2} maxLength={2000} disabled={pending} placeholder="e.g. release cancelled; stopping the waiting deploys" data-testid="bulk-note" />
      </div>
      {decision && offeredBy < n ? (
        <p className={ui.banner.warning} data-testid="bulk-not-offered">
          {plural(n - offeredBy, "selected gate does", "selected gates do")} not offer {label}: {n - offeredBy === 1 ? "it" : "they"} will be reported as refused and stay open.
        </p>
      ) : null}
      {needsNote ? (
        <p className={ui.banner.warning} data-testid="bulk-needs-note">
          Rejecting a proposal needs a note (the agent receives it as your reason): without one, the {plural(proposals, "proposal")} will be refused.
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <ConfirmButton
          className={ui.button(decision === "abort" || decision === "reject" ? "danger" : "primary")}
          disabled={pending || !decision}
          testId="bulk-decide"
          title={`${label} ${plural(n, "gate")}?`}
          question={
            <>
              Each of the {plural(n, "selected gate")} is decided on its own as <strong>{label}</strong>
              {note.trim() ? " with your note" : ""}: one audited decision per gate, each checked against its policy.
              {decision === "abort" ? " Aborting ends each mission FAILED; what was produced is kept." : ""}
              {offeredBy < n ? ` ${plural(n - offeredBy, "gate does", "gates do")} not offer ${label} and will be refused.` : ""}
            </>
          }
          confirmLabel={`${label} ${plural(n, "gate")}`}
          onConfirm={() => decision && onDecide(decision, note.trim() || null)}
        >
          {pending ? "Deciding…" : decision ? `${label} ${plural(n, "gate")}…` : "Choose a decision"}
        </ConfirmButton>
        {!decision ? <span className="text-sm text-muted">Choose a decision above, then confirm.</span> : null}
      </div>
    </section>
  );
}

/** What the last bulk decision did, item by item: decided, or refused with the server's reason. */
export function BulkResults({ outcomes, onDismiss }: { outcomes: BulkOutcome[]; onDismiss: () => void }) {
  const decided = outcomes.filter((o) => o.ok).length;
  const refused = outcomes.length - decided;
  return (
    <section className={ui.panel} aria-label="Results of the bulk decision" data-testid="bulk-results">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="m-0 font-[650]" data-testid="bulk-summary">
          Bulk decision: {decided} decided{refused ? `, ${refused} refused (still selected, still open unless decided by someone else)` : ""}.
        </p>
        <button type="button" className={ui.button("ghost", "sm")} onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      <ul className="m-0 grid list-none gap-1.5 p-0">
        {outcomes.map((o) => (
          <li key={o.gateId} className={o.ok ? ui.result.ok : ui.result.error} data-testid="bulk-result" data-ok={o.ok ? "true" : "false"} data-gate-id={o.gateId}>
            <span aria-hidden="true">{o.ok ? "✓ " : "✕ "}</span>
            <strong>{o.ok ? (o.status === "approval_recorded" ? "Approval recorded" : "Decided") : "Refused"}</strong>
            {": "}
            {DECISION_LABEL[o.decision]} for “{o.agent}” in{" "}
            <Link className="text-link underline underline-offset-2" href={`/missions/${o.missionId}`}>
              {o.missionName}
            </Link>
            {o.ok ? (o.status === "approval_recorded" ? `: ${o.approvals} of ${o.required} approvals; the gate stays open until enough people choose it.` : ".") : `. ${o.message}`}
          </li>
        ))}
      </ul>
    </section>
  );
}
