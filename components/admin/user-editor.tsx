"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type FormEvent } from "react";
import { resetPasswordAction, updateUserAction } from "@/app/(console)/admin/users/actions";
import type { UserView } from "@/db/queries/users";
import type { Role } from "@/lib/auth/roles";
import { splitGroups } from "@/lib/auth/user-admin";
import { FieldMessages, FormErrorBox, RolesFieldset, ShownOnce, toFormError, type FormError } from "./form-errors";
import * as ui from "@/components/ui/styles";

/** A destructive step waiting for its confirmation, set apart in the failure colour. */
const CONFIRM = "flex flex-wrap items-center gap-2 rounded-md border border-failed bg-failed-bg px-2.5 py-2";

/** Roles (checkboxes) and groups of one user; saved together, each change audited. */
export function UserAccessForm({ user }: { user: UserView }) {
  const router = useRouter();
  const ids = { groups: useId(), e: useId() };
  const [err, setErr] = useState<FormError | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, start] = useTransition();

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const patch = { roles: f.getAll("roles").map(String) as Role[], groups: splitGroups(String(f.get("groups") ?? "")) };
    start(async () => {
      const r = await updateUserAction({ id: user.id, patch });
      // The action's field paths are under `patch.`: show them at their fields.
      if (r.status === "error") {
        setErr(toFormError({ ...r.error, fieldErrors: r.error.fieldErrors?.map((x) => ({ ...x, path: x.path.replace(/^patch\./, "") })) }));
        setSaved(false);
        return;
      }
      setErr(null);
      setSaved(true);
      router.refresh();
    });
  }

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
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={ui.button("primary")} disabled={pending} data-testid="user-access-save">
          {pending ? "Saving…" : "Save roles and groups"}
        </button>
        {saved ? (
          <span className="text-success" role="status" data-testid="user-access-saved">
            ✓ Saved
          </span>
        ) : null}
      </div>
    </form>
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
            <span className={CONFIRM} role="group" aria-label="Confirm deactivation">
              <span>Deactivate {user.name}? They are signed out at their next request and cannot sign in; their API tokens stop working.</span>
              <button type="button" className={ui.button("danger")} disabled={pending} onClick={() => setActive(false)} data-testid="confirm-deactivate">
                Yes, deactivate
              </button>
              <button type="button" className={ui.button("ghost")} onClick={() => setConfirming(null)}>
                Cancel
              </button>
            </span>
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
            <span className={CONFIRM} role="group" aria-label="Confirm password reset">
              <span>Reset {user.name}&rsquo;s password{confirming === "temporary" ? " to a temporary one" : " by a one-time link"}? Their current sessions end.</span>
              <button type="button" className={ui.button("danger")} disabled={pending} onClick={() => reset(confirming)} data-testid="confirm-reset">
                Yes, reset
              </button>
              <button type="button" className={ui.button("ghost")} onClick={() => setConfirming(null)}>
                Cancel
              </button>
            </span>
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
