"use client";

import { useState, useTransition, type FormEvent } from "react";
import { ROLES } from "@/lib/auth/roles";
import type { FieldError } from "@/server/action-result";
import * as ui from "@/components/ui/styles";

/** The outcome of a form's last submit: the message, and field errors keyed by path. */
export interface FormError {
  message: string;
  fields: FieldError[];
}

export function toFormError(e: { message: string; fieldErrors?: FieldError[] }): FormError {
  return { message: e.message, fields: e.fieldErrors ?? [] };
}

/**
 * A form's submit, in a transition: `submit` gets the form's fields (and the form, to reset it) and
 * answers the error to show, or null when it went through (which clears the last error). `start` and
 * `setErr` serve the form's other buttons, so one error box and one pending state cover them all.
 */
export function useFormSubmit(submit: (fields: FormData, form: HTMLFormElement) => Promise<FormError | null>) {
  const [err, setErr] = useState<FormError | null>(null);
  const [pending, start] = useTransition();
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const fields = new FormData(form);
    start(async () => setErr(await submit(fields, form)));
  }
  return { err, setErr, pending, start, onSubmit };
}

/** The messages for one field (its path, or a path below it such as `roles.0`). */
export function messagesFor(err: FormError | null, path: string): string[] {
  return (err?.fields ?? []).filter((f) => f.path === path || f.path.startsWith(`${path}.`)).map((f) => f.message);
}

/** Field errors under an input, with the id its aria-describedby names. */
export function FieldMessages({ id, err, path }: { id: string; err: FormError | null; path: string }) {
  const m = messagesFor(err, path);
  if (!m.length) return null;
  return (
    <ul className={ui.cx(ui.fieldErrors, "text-sm text-failed")} id={id} data-testid={`field-error-${path}`}>
      {m.map((t) => (
        <li key={t}>{t}</li>
      ))}
    </ul>
  );
}

/** The form's overall error (role=alert). */
export function FormErrorBox({ err, testId }: { err: FormError | null; testId: string }) {
  if (!err) return null;
  return (
    <p className={ui.result.error} role="alert" data-testid={testId}>
      ✕ {err.message}
    </p>
  );
}

/** A secret shown once (invitation link, temporary password, API token), with a copy button. */
export function ShownOnce({ label, value, note, testId }: { label: string; value: string; note: string; testId: string }) {
  return (
    <div className={ui.cx(ui.result.ok, "grid gap-1.5 [&_p]:m-0")} role="status" data-testid={testId}>
      <div className="font-semibold">{label}</div>
      <div className="flex flex-wrap items-center gap-2">
        <code className="select-all break-all rounded border border-border bg-surface px-2 py-1 font-mono text-sm" data-testid={`${testId}-value`}>
          {value}
        </code>
        <button type="button" className={ui.button("secondary")} onClick={() => void navigator.clipboard?.writeText(value).catch(() => {})}>
          Copy
        </button>
      </div>
      <p className="text-muted text-sm">{note}</p>
    </div>
  );
}

/** The roles as checkboxes named `roles`, with their field errors (new user, a user's page). */
export function RolesFieldset({ id, err, checked = [], onChange }: { id: string; err: FormError | null; checked?: readonly string[]; onChange?: () => void }) {
  const invalid = messagesFor(err, "roles").length > 0;
  return (
    <fieldset className={ui.fieldset} aria-invalid={invalid || undefined} aria-describedby={invalid ? id : undefined}>
      <legend className="text-sm font-semibold">Roles</legend>
      <div className="flex flex-wrap items-center gap-2">
        {ROLES.map((r) => (
          <label key={r} className={ui.check}>
            <input type="checkbox" name="roles" value={r} defaultChecked={checked.includes(r)} onChange={onChange} /> {r}
          </label>
        ))}
      </div>
      <FieldMessages id={id} err={err} path="roles" />
    </fieldset>
  );
}
