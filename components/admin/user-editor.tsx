"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type ReactNode } from "react";
import { resetPasswordAction, updateUserAction } from "@/app/(console)/admin/users/actions";
import type { UserView } from "@/db/queries/users";
import type { Role } from "@/lib/auth/roles";
import { splitGroups } from "@/lib/auth/user-admin";
import { FieldMessages, FormErrorBox, RolesFieldset, ShownOnce, toFormError, useFormSubmit, type FormError } from "./form-errors";
import { SubmitRow } from "../ui/submit-row";
import * as ui from "@/components/ui/styles";

/** A destructive step waiting for its confirmation, set apart in the failure colour. */
const CONFIRM = "flex flex-wrap items-center gap-2 rounded-md border border-failed bg-failed-bg px-2.5 py-2";

/** Roles (checkboxes) and groups of one user; saved together, each change audited. */
export function UserAccessForm({ user }: { user: UserView }) {
  const router = useRouter();
  const ids = { groups: useId(), e: useId() };
  const [saved, setSaved] = useState(false);
  const { err, pending, onSubmit } = useFormSubmit(async (f) => {
    const patch = { roles: f.getAll("roles").map(String) as Role[], groups: splitGroups(String(f.get("groups") ?? "")) };
    const r = await updateUserAction({ id: user.id, patch });
    setSaved(r.status !== "error");
    if (r.status === "error") {
      // The action's field paths are under `patch.`: show them at their fields.
      return toFormError({ ...r.error, fieldErrors: r.error.fieldErrors?.map((x) => ({ ...x, path: x.path.replace(/^patch\./, "") })) });
    }
    router.refresh();
    return null;
  });

  return (
    <form className={ui.panel} onSubmit={onSubmit} noValidate data-testid="user-access-form" aria-labelledby={`${ids.e}-title`}>
      <h2 className="text-[15px] font-[650]" id={`${ids.e}-title`}>
        Roles and groups
      </h2>
      <RolesFieldset id={`${ids.e}-roles`} err={err} checked={user.roles} onChange={() => setSaved(false)} />
      <div className={ui.field}>
        <label htmlFor={ids.groups}>
          Groups <span className="text-muted text-sm">(lowercase letters, digits and dashes, separated by commas; gate policies name them)</span>
        </label>
        <input id={ids.groups} name="groups" type="text" defaultValue={user.groups.join(", ")} autoComplete="off" onChange={() => setSaved(false)} aria-invalid={err?.fields.some((x) => x.path.startsWith("groups")) || undefined} />
        <FieldMessages id={`${ids.e}-groups`} err={err} path="groups" />
      </div>
      <FormErrorBox err={err} testId="user-access-error" />
      <SubmitRow pending={pending} label="Save roles and groups" busy="Saving…" testId="user-access-save">
        {saved ? (
          <span className="text-success" role="status" data-testid="user-access-saved">
            ✓ Saved
          </span>
        ) : null}
      </SubmitRow>
    </form>
  );
}

/** A question asked in place of the button that raised it: the question, "Yes, …" (danger) and Cancel. */
function InlineConfirm({ label, yes, testId, disabled, onYes, onCancel, children }: { label: string; yes: string; testId: string; disabled: boolean; onYes: () => void; onCancel: () => void; children: ReactNode }) {
  return (
    <span className={CONFIRM} role="group" aria-label={label}>
      <span>{children}</span>
      <button type="button" className={ui.button("danger")} disabled={disabled} onClick={onYes} data-testid={testId}>
        {yes}
      </button>
      <button type="button" className={ui.button("ghost")} onClick={onCancel}>
        Cancel
      </button>
    </span>
  );
}

/** Deactivate (with confirmation) or reactivate; reset the password (temporary password or one-time link, shown once). */
export function UserAccountActions({ user, isSelf }: { user: UserView; isSelf: boolean }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<null | "deactivate" | "temporary" | "link">(null);
  const [err, setErr] = useState<FormError | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string; note: string } | null>(null);
  const [pending, start] = useTransition();

  const setActive = (active: boolean) =>
    start(async () => {
      const r = await updateUserAction({ id: user.id, patch: { active } });
      setConfirming(null);
      if (r.status === "error") return setErr(toFormError(r.error));
      setErr(null);
      router.refresh();
    });
  const reset = (mode: "temporary" | "link") =>
    start(async () => {
      const r = await resetPasswordAction({ id: user.id, mode });
      setConfirming(null);
      if (r.status === "error") return setErr(toFormError(r.error));
      setErr(null);
      const d = r.data;
      setSecret(
        d.mode === "temporary"
          ? { label: `Temporary password for ${user.name}`, value: d.temporaryPassword, note: `Shown only now: give it to ${user.name} yourself. They must choose a new password when they sign in. Their sessions have ended.` }
          : { label: `Password-reset link for ${user.name}`, value: new URL(d.path, window.location.origin).toString(), note: `Shown only now: give it to ${user.name} yourself (Faultline sends no email). It works once, until ${new Date(d.expiresAt).toUTCString()}. Their sessions have ended.` },
      );
      router.refresh();
    });

  return (
    <section className={ui.panel} aria-labelledby="account-actions-title">
      <h2 className="text-[15px] font-[650]" id="account-actions-title">
        Account
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        {user.active ? (
          confirming === "deactivate" ? (
            <InlineConfirm label="Confirm deactivation" yes="Yes, deactivate" testId="confirm-deactivate" disabled={pending} onYes={() => setActive(false)} onCancel={() => setConfirming(null)}>
              Deactivate {user.name}? They are signed out at their next request and cannot sign in; their API tokens stop working.
            </InlineConfirm>
          ) : (
            <button type="button" className={ui.button("danger")} disabled={pending || isSelf} title={isSelf ? "You cannot deactivate yourself" : undefined} onClick={() => setConfirming("deactivate")} data-testid="deactivate-user">
              Deactivate…
            </button>
          )
        ) : (
          <button type="button" className={ui.button("secondary")} disabled={pending} onClick={() => setActive(true)} data-testid="reactivate-user">
            Reactivate
          </button>
        )}
      </div>
      {user.active ? (
        <div className="flex flex-wrap items-center gap-2">
          {confirming === "temporary" || confirming === "link" ? (
            <InlineConfirm label="Confirm password reset" yes="Yes, reset" testId="confirm-reset" disabled={pending} onYes={() => reset(confirming)} onCancel={() => setConfirming(null)}>
              Reset {user.name}&rsquo;s password{confirming === "temporary" ? " to a temporary one" : " by a one-time link"}? Their current sessions end.
            </InlineConfirm>
          ) : (
            <>
              <button type="button" className={ui.button("secondary")} disabled={pending} onClick={() => setConfirming("temporary")} data-testid="reset-temporary">
                Reset to a temporary password…
              </button>
              <button type="button" className={ui.button("secondary")} disabled={pending} onClick={() => setConfirming("link")} data-testid="reset-link">
                Make a password-reset link…
              </button>
            </>
          )}
        </div>
      ) : (
        <p className="text-muted text-sm">Reactivate the user to reset their password.</p>
      )}
      <FormErrorBox err={err} testId="account-action-error" />
      <div aria-live="polite">{secret ? <ShownOnce {...secret} testId="reset-secret" /> : null}</div>
    </section>
  );
}
