"use client";

import { ConfirmButton } from "../ui/dialog";
import Link from "next/link";
import { useMemo } from "react";
import { deletePatternAction, updatePatternAction } from "@/app/(console)/patterns/actions";
import { ActionMessage } from "../ui/action-message";
import { DataTable, type DataColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";
import { useRowAction } from "../ui/use-row-action";
import * as ui from "@/components/ui/styles";

export interface PatternRowView {
  id: string;
  when: string;
  then: string;
  errorType: string;
  successes: number;
  failures: number;
  confidence: number;
  threshold: number;
  enabled: boolean;
  lastOutcome: string | null;
  lastMissionId: string | null;
  updatedAt: string;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Learned patterns with their record; admins can disable/enable and delete (server actions, checked on the server). */
export function PatternsTable({ patterns, canManage }: { patterns: PatternRowView[]; canManage: boolean }) {
  const { pending, outcome, run: act } = useRowAction();

  const columns = useMemo<DataColumn<PatternRowView>[]>(
    () => [
      {
        id: "when",
        header: "When",
        alwaysVisible: true,
        sortValue: (p) => p.when,
        rowAttr: "when",
        cell: (p) => (
          <>
            <code>{p.when}</code>
            <div className="text-muted text-sm">{p.errorType.replaceAll("_", " ")}</div>
          </>
        ),
      },
      { id: "then", header: "Then", sortValue: (p) => p.then, rowAttr: "then", cell: (p) => p.then.replaceAll("_", " ") },
      { id: "successes", header: "Successes", sortValue: (p) => p.successes, cell: (p) => p.successes },
      { id: "failures", header: "Failures", sortValue: (p) => p.failures, cell: (p) => p.failures },
      { id: "confidence", header: "Confidence", sortValue: (p) => p.confidence, cell: (p) => pct(p.confidence) },
      {
        id: "fast",
        header: "Fast path",
        sortValue: (p) => (!p.enabled ? 0 : p.confidence >= p.threshold ? 2 : 1),
        cell: (p) => {
          const trusted = p.enabled && p.confidence >= p.threshold;
          return <span className={ui.badge(trusted ? "success" : "neutral")}>{!p.enabled ? "Disabled" : trusted ? "Applied" : `Below ${pct(p.threshold)}`}</span>;
        },
      },
      {
        id: "last",
        header: "Last",
        className: "text-sm",
        sortValue: (p) => Date.parse(p.updatedAt),
        cell: (p) => (
          <>
            {p.lastOutcome ?? "—"} <RelativeTime iso={p.updatedAt} />
            {p.lastMissionId ? (
              <div>
                <Link href={`/missions/${p.lastMissionId}`}>mission</Link>
              </div>
            ) : null}
          </>
        ),
      },
      ...(canManage
        ? [
            {
              id: "actions",
              header: "Actions",
              alwaysVisible: true,
              cell: (p: PatternRowView) => (
                <div className="flex gap-1.5">
                  <button type="button" className={ui.button("plain", "sm")} disabled={pending} onClick={() => act(() => updatePatternAction({ id: p.id, enabled: !p.enabled }), `Pattern ${p.when} → ${p.then} ${p.enabled ? "disabled" : "enabled"}.`)}>
                    {p.enabled ? "Disable" : "Enable"}
                  </button>
                  <ConfirmButton
                    className={ui.button("danger", "sm")}
                    disabled={pending}
                    title="Delete this learned pattern?"
                    question={`"${p.when} → ${p.then}" and its ${p.successes + p.failures} recorded outcomes are deleted. Later recoveries start a new record.`}
                    confirmLabel="Delete pattern"
                    onConfirm={() => act(() => deletePatternAction({ id: p.id }), `Pattern ${p.when} → ${p.then} deleted.`)}
                  >
                    Delete
                  </ConfirmButton>
                </div>
              ),
            },
          ]
        : []),
    ],
    // `act` closes over the row action only.
    [canManage, pending],
  );
  return (
    <>
      <ActionMessage outcome={outcome} testId="pattern-result" errorTestId="pattern-error" />
      <DataTable
        data={patterns}
        columns={columns}
        rowTestId="pattern-row"
        label="Learned patterns"
        testId="patterns-table"
        empty={<>No pattern learned yet. Each recovery that runs (automatically or by an operator&rsquo;s &ldquo;Apply recovery plan&rdquo;) records its outcome here.</>}
      />
    </>
  );
}
