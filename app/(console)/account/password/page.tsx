import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ChangePasswordForm } from "@/components/admin/password-forms";
import { AccountTabs } from "@/components/admin/account-tabs";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { PASSWORD_MIN } from "@/lib/auth/user-admin";
import { getPrincipal } from "@/server/auth";
import * as ui from "@/components/ui/styles";

export const metadata: Metadata = { title: "Your password" };
export const dynamic = "force-dynamic";

export default async function PasswordPage() {
  const user = await getPrincipal();
  if (!user) redirect("/login?callbackUrl=/account/password");
  if (!can(user, "account.manage")) return <p className={ui.notice}>{describeMissingPermission(user, "account.manage")}</p>;
  return (
    <div className="grid gap-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <h1 className="text-xl font-[650]">Your password</h1>
          <p className="text-muted">
            {user.name} · {user.email}
          </p>
        </div>
      </header>
      <AccountTabs current="password" />
      {user.mustChangePassword ? (
        <p className={ui.banner.warning} role="alert" data-testid="must-change-password">
          An admin set your password. Choose your own before you continue: at least {PASSWORD_MIN} characters, different from the current one.
        </p>
      ) : (
        <p className="text-muted">At least {PASSWORD_MIN} characters, different from the current one. Your other sessions end; this browser is signed in again with the new password.</p>
      )}
      <ChangePasswordForm email={user.email} />
    </div>
  );
}
