"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState, useTransition } from "react";
import type { GateView } from "@/lib/views/gate-view";
import type { GateDecision } from "@/lib/mission/types";
import { decideGatesBulkAction } from "@/app/(console)/gates/actions";
import { fetchOpenGates } from "../api-client";
import { queryKeys } from "../query-keys";
import { GatePanel, type GateDecided } from "./gate-panel";
import { BulkDecisionBar, BulkResults, type BulkOutcome } from "./bulk-decision-bar";
import type { Decider } from "@/lib/mission/gate-policy";
import * as ui from "@/components/ui/styles";

/**
 * Every open gate, oldest first, live. People who decide gates can select several (a checkbox each,
 * X on a focused gate, select all / none) and decide them at once in the bulk bar.
 */
export function GatesInbox({ initialGates, canDecide, viewer = null }: { initialGates: GateView[]; canDecide: boolean; viewer?: Decider | null }) {
  const queryClient = useQueryClient();
  const { data: gates = initialGates, error } = useQuery({ queryKey: queryKeys.gates.open(), queryFn: fetchOpenGates, initialData: initialGates });
  const [decided, setDecided] = useState<GateDecided[]>([]);
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null);
  const [bulkError, setBulkError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  // Only gates still open are selected: one decided elsewhere leaves the selection when it leaves the list.
  const selected = gates.filter((g) => selection.has(g.id));
  const all = gates.length > 0 && selected.length === gates.length;
  const selectAll = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = selected.length > 0 && !all;
  }, [selected.length, all]);

  const toggle = (id: string) =>
    setSelection((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  function decideSelected(decision: GateDecision, note: string | null) {
    const items = selected;
    setBulkError(null);
    setOutcomes(null);
    startTransition(async () => {
      const r = await decideGatesBulkAction({ items: items.map((g) => ({ gateId: g.id })), decision, note });
      if (r.status === "ok") {
        const byId = new Map(items.map((g) => [g.id, g]));
        setOutcomes(
          r.data.results.map((x) => {
            const g = byId.get(x.id)!;
            const where = { gateId: x.id, missionId: g.missionId, missionName: g.missionName, agent: g.agent, decision };
            return x.ok ? { ...where, ok: true, status: x.status, approvals: x.approvals, required: x.required } : { ...where, ok: false, message: x.error.message };
          }),
        );
        // Decided gates leave the selection; refused ones stay selected for another decision.
        const done = new Set(r.data.results.filter((x) => x.ok && x.status === "resolved").map((x) => x.id));
        setSelection((prev) => new Set([...prev].filter((id) => !done.has(id))));
      } else {
        setBulkError(r.error.fieldErrors?.length ? `${r.error.message} ${r.error.fieldErrors.map((f) => `${f.path}: ${f.message}`).join("; ")}` : r.error.message);
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.gates.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.missions.all }),
      ]);
    });
  }

  return (
    <div className="grid gap-4">
      <div role="status" aria-live="polite" className="grid gap-2">
        {decided.map((d) => (
          <p key={d.gateId} className={ui.result.ok} data-testid="inbox-decided">
            <span aria-hidden="true">✓ </span>
            You chose <strong>{d.decision}</strong>
            {d.modified ? " with modified args" : ""} for “{d.agent}” in{" "}
            <Link className="text-link underline underline-offset-2" href={`/missions/${d.missionId}`}>
              {d.missionName}
            </Link>
            .
          </p>
        ))}
        {outcomes ? <BulkResults outcomes={outcomes} onDismiss={() => setOutcomes(null)} /> : null}
      </div>
      {bulkError ? (
        <p className={ui.result.error} role="alert" data-testid="bulk-error">
          <span aria-hidden="true">✕ </span>
          Nothing was decided: {bulkError}
        </p>
      ) : null}
      {error ? (
        <p className={ui.result.error} role="alert">
          Could not refresh the gates: {error.message}
        </p>
      ) : null}
      {canDecide && gates.length > 0 ? (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1.5" data-testid="gates-selection">
          <label className="inline-flex items-center gap-1.5 text-[13.5px] font-[550]">
            <input ref={selectAll} type="checkbox" className="size-4 accent-accent" checked={all} onChange={() => setSelection(all ? new Set() : new Set(gates.map((g) => g.id)))} disabled={pending} data-testid="gates-select-all" />
            Select all {gates.length} open {gates.length === 1 ? "gate" : "gates"}
          </label>
          <button type="button" className={ui.button("secondary", "sm")} onClick={() => setSelection(new Set())} disabled={pending || selected.length === 0} data-testid="gates-select-none">
            Select none
          </button>
          <span className="text-sm text-muted" data-testid="gates-selected-count">
            {selected.length} selected · press <kbd className="rounded border border-border px-1 text-[11px]">X</kbd> on a focused gate to select it, then decide the selection at once.
          </span>
        </div>
      ) : null}
      {canDecide && selected.length > 0 ? <BulkDecisionBar gates={selected} pending={pending} onDecide={decideSelected} onClear={() => setSelection(new Set())} /> : null}
      {gates.length === 0 ? (
        <div className={ui.empty} data-testid="gates-empty">
          <p>
            <strong>No open gates.</strong> When a critical or important agent fails, its gate appears here for an operator to retry, skip or abort.
          </p>
        </div>
      ) : (
        gates.map((g) => (
          <GatePanel
            key={g.id}
            gate={g}
            canDecide={canDecide}
            viewer={viewer}
            showMission
            headingLevel={2}
            selection={canDecide ? { selected: selection.has(g.id), onToggle: () => toggle(g.id), disabled: pending } : undefined}
            onDecided={(d) => setDecided((prev) => [d, ...prev].slice(0, 5))}
          />
        ))
      )}
    </div>
  );
}
