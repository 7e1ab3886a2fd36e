"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setEntryDeprecatedAction } from "@/app/(console)/library/actions";
import { ActionMessage, type ActionOutcome } from "@/components/ui/action-message";
import { SubmitRow } from "@/components/ui/submit-row";
import * as ui from "@/components/ui/styles";

/** Admins deprecate or restore an entry; the reason goes into the changelog of the new library version. */
export function EntryAdmin({ failureId, deprecated }: { failureId: string; deprecated: boolean }) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  const [pending, start] = useTransition();
  const [result, setResult] = useState<ActionOutcome | null>(null);
  const verb = deprecated ? "Restore" : "Deprecate";
  return (
    <form
      className={ui.cx(ui.card, "grid max-w-[640px] gap-2 px-3.5 py-3")}
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
      <h2 className="text-[15px] font-[650]">{verb} this entry</h2>
      <p className="text-muted text-sm">{deprecated ? "Restoring puts the entry back into query results." : "A deprecated entry stays with its history but is no longer returned by queries. Entries are never deleted."} This publishes a new library version.</p>
      <div className={ui.field}>
        <label htmlFor="lib-reason">Reason (required)</label>
        <input id="lib-reason" type="text" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} placeholder={deprecated ? "Back in use for…" : "Superseded by FM-…, or wrong because…"} data-testid="entry-admin-reason" />
      </div>
      <SubmitRow pending={pending} label={verb} busy={`${verb.slice(0, -1)}ing…`} testId="entry-admin-submit" variant={deprecated ? "secondary" : "danger"} size="sm" />
      <ActionMessage outcome={result} testId="entry-admin-result" errorTestId="entry-admin-error" />
    </form>
  );
}
