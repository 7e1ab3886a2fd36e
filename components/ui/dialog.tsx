"use client";

import { AlertDialog, Dialog as RadixDialog } from "radix-ui";
import { useState, type ReactNode } from "react";
import * as ui from "@/components/ui/styles";

/**
 * The console's dialogs on Radix UI: focus is trapped and returned, Escape and the overlay close, the
 * title and description label the dialog. One look for every modal (utilities, light and dark).
 */

const OVERLAY = "fixed inset-0 z-40 bg-black/40";
const PANEL = "fixed left-1/2 top-1/2 z-50 grid max-h-[90vh] w-[min(720px,calc(100vw-32px))] -translate-x-1/2 -translate-y-1/2 gap-4 overflow-auto rounded-md border border-border bg-surface p-5 text-fg shadow-card";

export function Dialog({ open, onOpenChange, trigger, title, description, children, testId }: { open?: boolean; onOpenChange?: (open: boolean) => void; trigger?: ReactNode; title: string; description?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={OVERLAY} />
        <RadixDialog.Content className={PANEL} data-testid={testId}>
          <header className="flex items-start justify-between gap-4">
            <RadixDialog.Title className="m-0 text-lg font-semibold">{title}</RadixDialog.Title>
            <RadixDialog.Close className={ui.button("ghost")} aria-label="Close">
              ✕
            </RadixDialog.Close>
          </header>
          {description ? <RadixDialog.Description className="m-0 text-muted">{description}</RadixDialog.Description> : <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * A button that asks before it acts (Radix AlertDialog): the question says what will happen; Cancel has
 * the focus first, so Enter never confirms by accident.
 */
export function ConfirmButton({ children, title, question, confirmLabel, onConfirm, className = ui.button("danger"), disabled, testId }: { children: ReactNode; title: string; question: ReactNode; confirmLabel: string; onConfirm: () => void; className?: string; disabled?: boolean; testId?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <button type="button" className={className} disabled={disabled} data-testid={testId}>
          {children}
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={OVERLAY} />
        <AlertDialog.Content className={`${PANEL} w-[min(520px,calc(100vw-32px))]`} data-testid="confirm-dialog">
          <AlertDialog.Title className="m-0 text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="m-0">{question}</AlertDialog.Description>
          <div className="flex justify-end gap-2">
            <AlertDialog.Cancel className={ui.button("secondary")}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action
              className={ui.button("danger")}
              data-testid="confirm-action"
              onClick={() => {
                setOpen(false);
                onConfirm();
              }}
            >
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
