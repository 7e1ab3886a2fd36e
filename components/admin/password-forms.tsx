"use client";

import { signIn } from "next-auth/react";
import { useId } from "react";
import { changePasswordAction } from "@/app/(console)/account/actions";
import { setPasswordFromLinkAction } from "@/app/invite/[token]/actions";
import { PASSWORD_MIN } from "@/lib/auth/user-admin";
import { FieldMessages, FormErrorBox, toFormError, useFormSubmit, type FormError } from "./form-errors";
import * as ui from "@/components/ui/styles";

/**
 * After a password change every earlier session has ended (this one too): sign in again with the new
 * password, then open the console. A full navigation, so the layout reads the new session.
 */
async function signInAndGo(email: string, password: string): Promise<FormError | null> {
  const res = await signIn("credentials", { email, password, redirect: false });
  if (!res || res.error) {
    window.location.assign("/login");
    return { message: "Your password is set, but signing in automatically failed. Sign in with the new password.", fields: [] };
  }
  window.location.assign("/missions");
  return null;
}

function PasswordFields({ err, current }: { err: FormError | null; current: boolean }) {
  const ids = { cur: useId(), pw: useId(), confirm: useId(), e: useId() };
  const bad = (p: string) => err?.fields.some((x) => x.path === p) || undefined;
  return (
    <>
      {current ? (
        <div className={ui.field}>
          <label htmlFor={ids.cur}>Current password</label>
          <input id={ids.cur} name="currentPassword" type="password" autoComplete="current-password" aria-invalid={bad("currentPassword")} aria-describedby={`${ids.e}-cur`} />
          <FieldMessages id={`${ids.e}-cur`} err={err} path="currentPassword" />
        </div>
      ) : null}
      <div className={ui.field}>
        <label htmlFor={ids.pw}>New password (at least {PASSWORD_MIN} characters)</label>
        <input id={ids.pw} name="newPassword" type="password" autoComplete="new-password" aria-invalid={bad("newPassword") ?? bad("password")} aria-describedby={`${ids.e}-pw`} />
        <FieldMessages id={`${ids.e}-pw`} err={err} path={current ? "newPassword" : "password"} />
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.confirm}>New password again</label>
        <input id={ids.confirm} name="confirm" type="password" autoComplete="new-password" aria-invalid={bad("confirm")} aria-describedby={`${ids.e}-confirm`} />
        <FieldMessages id={`${ids.e}-confirm`} err={err} path="confirm" />
      </div>
    </>
  );
}

const mismatch: FormError = { message: "The two new passwords differ.", fields: [{ path: "confirm", message: "does not match the new password" }] };

/** Change your own password; then you are signed in again with it. */
export function ChangePasswordForm({ email }: { email: string }) {
  const { err, pending, onSubmit } = useFormSubmit(async (f) => {
    const newPassword = String(f.get("newPassword") ?? "");
    if (newPassword !== String(f.get("confirm") ?? "")) return mismatch;
    const r = await changePasswordAction({ currentPassword: String(f.get("currentPassword") ?? ""), newPassword });
    return r.status === "error" ? toFormError(r.error) : signInAndGo(email, newPassword);
  });
  return (
    <form className={ui.cx(ui.panel, "max-w-[480px]")} onSubmit={onSubmit} noValidate data-testid="change-password-form">
      <PasswordFields err={err} current />
      <FormErrorBox err={err} testId="change-password-error" />
      <button type="submit" className={ui.button("primary")} disabled={pending} data-testid="change-password-submit">
        {pending ? "Saving…" : "Set new password"}
      </button>
    </form>
  );
}

/** Set a password from a one-time invitation or reset link; then signed in. */
export function LinkPasswordForm({ token, email }: { token: string; email: string }) {
  const { err, pending, onSubmit } = useFormSubmit(async (f) => {
    const password = String(f.get("newPassword") ?? "");
    const r = await setPasswordFromLinkAction({ token, password, confirm: String(f.get("confirm") ?? "") });
    return r.status === "error" ? toFormError(r.error) : signInAndGo(r.data.email || email, password);
  });
  return (
    <form className="grid gap-2" onSubmit={onSubmit} noValidate data-testid="invite-form">
      <PasswordFields err={err} current={false} />
      <FormErrorBox err={err} testId="invite-error" />
      <button type="submit" className={ui.button("primary", "block")} disabled={pending} data-testid="invite-submit">
        {pending ? "Saving…" : "Set password and sign in"}
      </button>
    </form>
  );
}
