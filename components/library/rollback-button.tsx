"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { rollbackLibraryAction } from "@/app/(console)/library/actions";

/** An admin rolls the library back to `to` after confirming; the result (the new version) is shown. */
export function RollbackButton({ to, current }: { to: number; current: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <div className="stack-tight">
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={pending}
        data-testid="rollback"
        onClick={() => {
          if (!window.confirm(`Roll the library back to version ${to}? Every entry changed since then gets back its state as of version ${to} (entries added later are deprecated). This is recorded as version ${current + 1}; nothing is deleted.`)) return;
          start(async () => {
            const r = await rollbackLibraryAction({ to });
            setResult(r.status === "ok" ? { ok: true, text: r.data.version ? `Rolled back to version ${to}: the library is now at version ${r.data.version}.` : `Nothing to do: the library already equals version ${to}.` } : { ok: false, text: r.error.message });
            if (r.status === "ok") router.refresh();
          });
        }}
      >
        {pending ? "Rolling back…" : "Roll back to this version"}
      </button>
      <div aria-live="polite" role="status">
        {result?.ok ? (
          <p className="result result-ok small" data-testid="rollback-result">
            ✓ {result.text}
          </p>
        ) : null}
      </div>
      {result && !result.ok ? (
        <p className="result result-error small" role="alert" data-testid="rollback-error">
          ✕ {result.text}
        </p>
      ) : null}
    </div>
  );
}
