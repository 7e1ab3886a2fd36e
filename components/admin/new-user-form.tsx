"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { createUserAction } from "@/app/(console)/admin/users/actions";
import type { Role } from "@/lib/auth/roles";
import { PASSWORD_MIN, splitGroups } from "@/lib/auth/user-admin";
import { FieldMessages, FormErrorBox, RolesFieldset, ShownOnce, toFormError, useFormSubmit } from "./form-errors";
import { SubmitRow } from "../ui/submit-row";
import * as ui from "@/components/ui/styles";

type Done = { kind: "created"; name: string; email: string } | { kind: "invited"; name: string; url: string; expiresAt: string };

/** Create a user with an initial password, or invite one by a one-time link (shown once: Faultline sends no email). */
export function NewUserForm() {
  const router = useRouter();
  const ids = { email: useId(), name: useId(), roles: useId(), groups: useId(), password: useId(), e: useId() };
  const [mode, setMode] = useState<"invite" | "password">("invite");
  const [done, setDone] = useState<Done | null>(null);
  const { err, pending, onSubmit } = useFormSubmit(async (f, form) => {
    const base = {
      email: String(f.get("email") ?? ""),
      name: String(f.get("name") ?? ""),
      roles: f.getAll("roles").map(String) as Role[],
      groups: splitGroups(String(f.get("groups") ?? "")),
    };
    const r = await createUserAction(mode === "invite" ? { mode, ...base } : { mode, ...base, password: String(f.get("password") ?? ""), mustChangePassword: f.get("mustChange") === "on" });
    if (r.status === "error") {
      setDone(null);
      return toFormError(r.error);
    }
    const { user, invite } = r.data;
    setDone(invite ? { kind: "invited", name: user.name, url: new URL(invite.path, window.location.origin).toString(), expiresAt: invite.expiresAt } : { kind: "created", name: user.name, email: user.email });
    form.reset();
    router.refresh();
    return null;
  });

  const invalid = (path: string, id: string) => (err?.fields.some((x) => x.path === path || x.path.startsWith(`${path}.`)) ? { "aria-invalid": true as const, "aria-describedby": id } : {});

  return (
    <section className={ui.panel} aria-labelledby="new-user-title">
      <h2 className="text-[15px] font-[650]" id="new-user-title">
        Add a user
      </h2>
      <form className="grid gap-2" onSubmit={onSubmit} noValidate data-testid="new-user-form">
        <fieldset className={ui.fieldset}>
          <legend className="text-sm font-semibold">How they get a password</legend>
          <label className={ui.check}>
            <input type="radio" name="mode" value="invite" checked={mode === "invite"} onChange={() => setMode("invite")} /> Invite: a one-time link to set their own password (valid 7 days)
          </label>
          <label className={ui.check}>
            <input type="radio" name="mode" value="password" checked={mode === "password"} onChange={() => setMode("password")} /> Set an initial password now
          </label>
        </fieldset>
        <div className={ui.formGrid}>
          <div className={ui.field}>
            <label htmlFor={ids.name}>Name</label>
            <input id={ids.name} name="name" type="text" autoComplete="off" {...invalid("name", `${ids.e}-name`)} />
            <FieldMessages id={`${ids.e}-name`} err={err} path="name" />
          </div>
          <div className={ui.field}>
            <label htmlFor={ids.email}>Email</label>
            <input id={ids.email} name="email" type="email" autoComplete="off" {...invalid("email", `${ids.e}-email`)} />
            <FieldMessages id={`${ids.e}-email`} err={err} path="email" />
          </div>
        </div>
        <RolesFieldset id={`${ids.e}-roles`} err={err} />
        <div className={ui.field}>
          <label htmlFor={ids.groups}>
            Groups <span className="text-muted text-sm">(optional; lowercase letters, digits and dashes, separated by commas, e.g. night-shift)</span>
          </label>
          <input id={ids.groups} name="groups" type="text" autoComplete="off" {...invalid("groups", `${ids.e}-groups`)} />
          <FieldMessages id={`${ids.e}-groups`} err={err} path="groups" />
        </div>
        {mode === "password" ? (
          <>
            <div className={ui.field}>
              <label htmlFor={ids.password}>Initial password (at least {PASSWORD_MIN} characters)</label>
              <input id={ids.password} name="password" type="password" autoComplete="new-password" {...invalid("password", `${ids.e}-password`)} />
              <FieldMessages id={`${ids.e}-password`} err={err} path="password" />
            </div>
            <label className={ui.check}>
              <input type="checkbox" name="mustChange" defaultChecked /> They must choose a new password at first sign-in
            </label>
          </>
        ) : (
          <p className="text-muted text-sm">Faultline sends no email: after adding the user you get a link to give them yourself (chat, in person). It is shown once.</p>
        )}
        <FormErrorBox err={err} testId="new-user-error" />
        <SubmitRow pending={pending} label={mode === "invite" ? "Add and make invitation link" : "Add user"} busy="Adding…" testId="new-user-submit" />
      </form>
      <div aria-live="polite">
        {done?.kind === "invited" ? (
          <ShownOnce
            label={`Invitation link for ${done.name}`}
            value={done.url}
            note={`Shown only now: copy it and give it to ${done.name} yourself (Faultline sends no email). It works once, until ${new Date(done.expiresAt).toUTCString()}.`}
            testId="invite-link"
          />
        ) : done?.kind === "created" ? (
          <p className={ui.result.ok} data-testid="new-user-result">
            ✓ Added {done.name} ({done.email}). Give them the initial password yourself.
          </p>
        ) : null}
      </div>
    </section>
  );
}
