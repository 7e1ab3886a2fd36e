"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setEntryDeprecatedAction } from "@/app/(console)/library/actions";

/** Admins deprecate or restore an entry; the reason goes into the changelog of the new library version. */
export function EntryAdmin({ failureId, deprecated }: { failureId: string; deprecated: boolean }) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  const [pending, start] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; text: string; fields?: string[] } | null>(null);
  const verb = deprecated ? "Restore" : "Deprecate";
  return (
    <form
      className="card lib-admin stack-tight"
      data-testid="entry-admin"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await setEntryDeprecatedAction({ failureId, deprecated: !deprecated, reason });
          if (r.status === "ok") {
            setResult({ ok: true, text: `${failureId} ${r.data.deprecated ? "deprecated" : "restored"} in library version ${r.data.version}.` });
            setReason("");
            router.refresh();
          } else setResult({ ok: false, text: r.error.message, fields: r.error.fieldErrors?.map((f) => `${f.path}: ${f.message}`) });
        });
      }}
    >
      <h2 className="section-title">{verb} this entry</h2>
      <p className="muted small">{deprecated ? "Restoring puts the entry back into query results." : "A deprecated entry stays with its history but is no longer returned by queries. Entries are never deleted."} This publishes a new library version.</p>
      <div className="field">
        <label htmlFor="lib-reason">Reason (required)</label>
        <input id="lib-reason" type="text" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} placeholder={deprecated ? "Back in use for…" : "Superseded by FM-…, or wrong because…"} data-testid="entry-admin-reason" />
      </div>
      <div className="row">
        <button type="submit" className={`btn btn-sm ${deprecated ? "btn-secondary" : "btn-danger"}`} disabled={pending} data-testid="entry-admin-submit">
          {pending ? `${verb.slice(0, -1)}ing…` : verb}
        </button>
      </div>
      <div aria-live="polite" role="status">
        {result?.ok ? (
          <p className="result result-ok" data-testid="entry-admin-result">
            ✓ {result.text}
          </p>
        ) : null}
      </div>
      {result && !result.ok ? (
        <div className="result result-error" role="alert" data-testid="entry-admin-error">
          ✕ {result.text}
          {result.fields?.length ? (
            <ul className="field-errors">
              {result.fields.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
