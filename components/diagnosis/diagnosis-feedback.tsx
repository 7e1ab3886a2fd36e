"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, useTransition } from "react";
import { diagnosisFeedbackAction } from "@/app/(console)/gates/actions";
import { DIAGNOSED_TYPES } from "@/lib/diagnosis/types";
import { fetchDiagnosisFeedback } from "../api-client";
import { queryKeys } from "../query-keys";
import { RelativeTime } from "../ui/relative-time";
import * as ui from "@/components/ui/styles";

const words = (t: string) => t.replaceAll("_", " ");

/**
 * "Is this diagnosis right?" at a gate (issue 18): one click confirms the error type, or the operator
 * picks the right one. The latest verdict is shown to everyone; only deciders (gate.decide) give one.
 * Every verdict is kept, audited and feeds the Diagnostics page's calibration and accuracy charts.
 */
export function DiagnosisFeedback({ diagnosisId, statedType, canGive }: { diagnosisId: string; statedType: string; canGive: boolean }) {
  const queryClient = useQueryClient();
  const { data: latest, error: loadError } = useQuery({ queryKey: queryKeys.diagnoses.feedback(diagnosisId), queryFn: () => fetchDiagnosisFeedback(diagnosisId) });
  const [correcting, setCorrecting] = useState(false);
  const [type, setType] = useState<string>("");
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const ids = { select: useId() };

  function send(input: { verdict: "confirmed" } | { verdict: "corrected"; type: string }) {
    setError(null);
    startTransition(async () => {
      const r = await diagnosisFeedbackAction({ diagnosisId, ...input, note: null });
      if (r.status === "ok") {
        queryClient.setQueryData(queryKeys.diagnoses.feedback(diagnosisId), r.data);
        setCorrecting(false);
      } else setError(r.error.message);
    });
  }

  return (
    <div className="flex flex-wrap items-center gap-2 text-[13px]" data-testid="diagnosis-feedback">
      {latest ? (
        <span data-testid="diagnosis-verdict">
          {latest.verdict === "confirmed" ? (
            <>
              <span aria-hidden="true" className="text-success">
                ✓{" "}
              </span>
              {words(latest.statedType)} confirmed by {latest.actorName}
            </>
          ) : (
            <>
              <span aria-hidden="true" className="text-partial">
                ✎{" "}
              </span>
              Corrected to <strong>{words(latest.correctType)}</strong> by {latest.actorName}
            </>
          )}{" "}
          <span className="text-muted">
            (<RelativeTime iso={latest.at} />)
          </span>
        </span>
      ) : (
        <span className="text-muted">{loadError ? `Could not load the verdict: ${loadError.message}` : "Is this diagnosis right?"}</span>
      )}
      {canGive && !correcting ? (
        <>
          {latest?.verdict !== "confirmed" || latest.correctType !== statedType ? (
            <button type="button" className={ui.button("secondary", "sm")} disabled={pending} onClick={() => send({ verdict: "confirmed" })} data-testid="diagnosis-confirm">
              Confirm {words(statedType)}
            </button>
          ) : null}
          <button type="button" className={ui.button("ghost", "sm")} disabled={pending} onClick={() => setCorrecting(true)} data-testid="diagnosis-correct">
            Correct…
          </button>
        </>
      ) : null}
      {canGive && correcting ? (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (type) send({ verdict: "corrected", type });
          }}
        >
          <label htmlFor={ids.select}>The right type:</label>
          <select id={ids.select} value={type} onChange={(e) => setType(e.target.value)} required data-testid="diagnosis-correct-type" className="rounded-md border border-border bg-surface px-2 py-1">
            <option value="">Choose…</option>
            {DIAGNOSED_TYPES.filter((t) => t !== statedType).map((t) => (
              <option key={t} value={t}>
                {words(t)}
              </option>
            ))}
          </select>
          <button type="submit" className={ui.button("primary", "sm")} disabled={pending || !type} data-testid="diagnosis-correct-save">
            {pending ? "Saving…" : "Save correction"}
          </button>
          <button type="button" className={ui.button("ghost", "sm")} onClick={() => setCorrecting(false)}>
            Cancel
          </button>
        </form>
      ) : null}
      {error ? (
        <p className={ui.cx(ui.result.error, "m-0 w-full")} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
