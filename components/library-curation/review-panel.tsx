"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { reviewContributionAction, withdrawContributionAction } from "@/app/(console)/contributions/actions";
import * as ui from "@/components/ui/styles";

const VERDICTS = [
  { verdict: "approve", label: "Approve", variant: "primary", done: "Approved." },
  { verdict: "request_changes", label: "Request changes", variant: "secondary", done: "Changes requested." },
  { verdict: "reject", label: "Reject", variant: "danger", done: "Rejected." },
] as const;

/**
 * A reviewer's verdict: approve, request changes or reject, each with a required reason. Offered only to
 * reviewers who are not the author; the server refuses the author anyway.
 */
export function ReviewPanel({ id, approvals, required }: { id: string; approvals: number; required: number }) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const uid = useId();
  const decide = (verdict: (typeof VERDICTS)[number]["verdict"], label: string) =>
    start(async () => {
      setDone(null);
      if (reason.trim().length < 3) {
        setError(`A reason is required to ${label.toLowerCase()}: say why (at least 3 characters).`);
        return;
      }
      const r = await reviewContributionAction({ id, verdict, reason });
      if (r.status === "error") {
        setError(r.error.message);
        return;
      }
      setError(null);
      setReason("");
      setDone(r.data.status === "approved" ? `Approved and published as ${r.data.failureId} in library version ${r.data.publishedVersion}.` : r.data.status === "in_review" ? `Approval recorded: ${r.data.approvals} of ${r.data.required}.` : (VERDICTS.find((v) => v.verdict === verdict)?.done ?? "Done."));
      router.refresh();
    });
  return (
    <section className={ui.cx(ui.card, "grid gap-2 border-l-[3px] border-l-accent px-3.5 py-3")} aria-labelledby={`${uid}-h`} data-testid="review-panel">
      <h2 id={`${uid}-h`} className="text-[15px] font-[650]">
        Your review
      </h2>
      <p className="text-muted text-sm">
        Approvals so far: {approvals} of {required} needed. The last approval publishes the entry as a new library version.
      </p>
      <div className={ui.field}>
        <label htmlFor={`${uid}-reason`}>Reason (required)</label>
        <textarea id={`${uid}-reason`} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} aria-invalid={error ? true : undefined} data-testid="review-reason" />
      </div>
      {error ? (
        <p className={ui.result.error} role="alert" data-testid="review-error">
          ✕ {error}
        </p>
      ) : null}
      {done ? (
        <p className={ui.result.ok} role="status" data-testid="review-result">
          ✓ {done}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        {VERDICTS.map((v) => (
          <button key={v.verdict} type="button" className={ui.button(v.variant)} disabled={pending} onClick={() => decide(v.verdict, v.label)} data-testid={`review-${v.verdict}`}>
            {v.label}
          </button>
        ))}
      </div>
    </section>
  );
}

/** The author's "Withdraw" (back to draft, until a reviewer approves). */
export function WithdrawButton({ id }: { id: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <>
      <button
        type="button"
        className={ui.button("secondary")}
        disabled={pending}
        data-testid="withdraw"
        onClick={() =>
          start(async () => {
            const r = await withdrawContributionAction({ id });
            if (r.status === "error") setError(r.error.message);
            else router.refresh();
          })
        }
      >
        Withdraw to draft
      </button>
      {error ? (
        <p className={ui.result.error} role="alert">
          ✕ {error}
        </p>
      ) : null}
    </>
  );
}
