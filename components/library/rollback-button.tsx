"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { rollbackLibraryAction } from "@/app/(console)/library/actions";
import { ConfirmButton } from "../ui/dialog";
import * as ui from "@/components/ui/styles";

/** An admin rolls the library back to `to` after confirming; the result (the new version) is shown. */
export function RollbackButton({ to, current }: { to: number; current: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <div className="grid gap-2">
      <ConfirmButton
        className={ui.button("secondary", "sm")}
        disabled={pending}
        testId="rollback"
        title={`Roll the library back to version ${to}?`}
        question={`Every entry changed since then gets back its state as of version ${to} (entries added later are deprecated). This is recorded as version ${current + 1}; nothing is deleted.`}
        confirmLabel={`Roll back to version ${to}`}
        onConfirm={() =>
          start(async () => {
            const r = await rollbackLibraryAction({ to });
            setResult(r.status === "ok" ? { ok: true, text: r.data.version ? `Rolled back to version ${to}: the library is now at version ${r.data.version}.` : `Nothing to do: the library already equals version ${to}.` } : { ok: false, text: r.error.message });
            if (r.status === "ok") router.refresh();
          })
        }
      >
        {pending ? "Rolling back…" : "Roll back to this version"}
      </ConfirmButton>
      <div aria-live="polite" role="status">
        {result?.ok ? (
          <p className={ui.cx(ui.result.ok, "text-sm")} data-testid="rollback-result">
            ✓ {result.text}
          </p>
        ) : null}
      </div>
      {result && !result.ok ? (
        <p className={ui.cx(ui.result.error, "text-sm")} role="alert" data-testid="rollback-error">
          ✕ {result.text}
        </p>
      ) : null}
    </div>
  );
}
