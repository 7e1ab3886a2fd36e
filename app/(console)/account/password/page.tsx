import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/admin/password-forms";
import { AccountTabs } from "@/components/admin/account-tabs";
import { can } from "@/lib/auth/roles";
import { PASSWORD_MIN } from "@/lib/auth/user-admin";
import * as ui from "@/components/ui/styles";
import { pageUser } from "@/server/page-access";
import { PageHeader, Refused } from "@/components/layout/page";

export const metadata: Metadata = { title: "Your password" };
export const dynamic = "force-dynamic";

export default async function PasswordPage() {
  const user = await pageUser("/account/password");
  if (!can(user, "account.manage")) return <Refused user={user} permission="account.manage" />;
  return (
    <div className="grid gap-4">
      <PageHeader title="Your password">
        {user.name} · {user.email}
      </PageHeader>
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
