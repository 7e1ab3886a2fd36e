"use client";

import { ConfirmButton } from "../ui/dialog";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { deletePatternAction, updatePatternAction } from "@/app/(console)/patterns/actions";
import { RelativeTime } from "../ui/relative-time";

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
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const act = (fn: () => Promise<{ status: "ok" } | { status: "error"; error: { message: string } }>, done: string) =>
    start(async () => {
      const r = await fn();
      setMessage(r.status === "ok" ? { ok: true, text: done } : { ok: false, text: r.error.message });
      if (r.status === "ok") router.refresh();
    });

  if (patterns.length === 0) {
    return <p className="notice">No pattern learned yet. Each recovery that runs (automatically or by an operator&rsquo;s &ldquo;Apply recovery plan&rdquo;) records its outcome here.</p>;
  }
  return (
    <>
      <div aria-live="polite" role="status">
        {message?.ok ? (
          <p className="result result-ok" data-testid="pattern-result">
            ✓ {message.text}
          </p>
        ) : null}
      </div>
      {message && !message.ok ? (
        <p className="result result-error" role="alert" data-testid="pattern-error">
          ✕ {message.text}
        </p>
      ) : null}
      <table className="table" data-testid="patterns-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Then</th>
            <th scope="col">Successes</th>
            <th scope="col">Failures</th>
            <th scope="col">Confidence</th>
            <th scope="col">Fast path</th>
            <th scope="col">Last</th>
            {canManage ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {patterns.map((p) => {
            const trusted = p.enabled && p.confidence >= p.threshold;
            return (
              <tr key={p.id} data-testid="pattern-row" data-when={p.when} data-then={p.then}>
                <td>
                  <code>{p.when}</code>
                  <div className="muted small">{p.errorType.replaceAll("_", " ")}</div>
                </td>
                <td>{p.then.replaceAll("_", " ")}</td>
                <td>{p.successes}</td>
                <td>{p.failures}</td>
                <td>{pct(p.confidence)}</td>
                <td>
                  <span className={`badge ${trusted ? "tone-success" : "tone-neutral"}`}>{!p.enabled ? "Disabled" : trusted ? "Applied" : `Below ${pct(p.threshold)}`}</span>
                </td>
                <td className="small">
                  {p.lastOutcome ?? "—"} <RelativeTime iso={p.updatedAt} />
                  {p.lastMissionId ? (
                    <div>
                      <Link href={`/missions/${p.lastMissionId}`}>mission</Link>
                    </div>
                  ) : null}
                </td>
                {canManage ? (
                  <td>
                    <div className="row-actions">
                      <button type="button" className="btn btn-sm" disabled={pending} onClick={() => act(() => updatePatternAction({ id: p.id, enabled: !p.enabled }), `Pattern ${p.when} → ${p.then} ${p.enabled ? "disabled" : "enabled"}.`)}>
                        {p.enabled ? "Disable" : "Enable"}
                      </button>
                      <ConfirmButton
                        className="btn btn-sm btn-danger"
                        disabled={pending}
                        title="Delete this learned pattern?"
                        question={`"${p.when} → ${p.then}" and its ${p.successes + p.failures} recorded outcomes are deleted. Later recoveries start a new record.`}
                        confirmLabel="Delete pattern"
                        onConfirm={() => act(() => deletePatternAction({ id: p.id }), `Pattern ${p.when} → ${p.then} deleted.`)}
                      >
                        Delete
                      </ConfirmButton>
                    </div>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
