"use client";

import { rollbackLibraryAction } from "@/app/(console)/library/actions";
import { ActionMessage } from "../ui/action-message";
import { ConfirmButton } from "../ui/dialog";
import { useRowAction } from "../ui/use-row-action";
import * as ui from "@/components/ui/styles";

/** An admin rolls the library back to `to` after confirming; the result (the new version) is shown. */
export function RollbackButton({ to, current }: { to: number; current: number }) {
  const { pending, outcome, run } = useRowAction();
  return (
    <div className="grid gap-2">
      <ConfirmButton
        className={ui.button("secondary", "sm")}
        disabled={pending}
        testId="rollback"
        title={`Roll the library back to version ${to}?`}
        question={`Every entry changed since then gets back its state as of version ${to} (entries added later are deprecated). This is recorded as version ${current + 1}; nothing is deleted.`}
        confirmLabel={`Roll back to version ${to}`}
        onConfirm={() => run(() => rollbackLibraryAction({ to }), (d) => (d.version ? `Rolled back to version ${to}: the library is now at version ${d.version}.` : `Nothing to do: the library already equals version ${to}.`))}
      >
        {pending ? "Rolling back…" : "Roll back to this version"}
      </ConfirmButton>
      <ActionMessage outcome={outcome} testId="rollback-result" errorTestId="rollback-error" size="sm" />
    </div>
  );
}
