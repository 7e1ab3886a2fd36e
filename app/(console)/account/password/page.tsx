import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/admin/password-forms";
import { AccountTabs } from "@/components/admin/account-tabs";
import { PASSWORD_MIN } from "@/lib/auth/user-admin";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Your password" };

export default consolePage({ path: "/account/password", permission: "account.manage" }, async (user) => {
  return (
    <Page
      title="Your password"
      intro={
        <>
          {user.name} · {user.email}
        </>
      }
    >
      <AccountTabs current="password" />
      {user.mustChangePassword ? (
        <p className={ui.banner.warning} role="alert" data-testid="must-change-password">
          An admin set your password. Choose your own before you continue: at least {PASSWORD_MIN} characters, different from the current one.
        </p>
      ) : (
        <p className="text-muted">At least {PASSWORD_MIN} characters, different from the current one. Your other sessions end; this browser is signed in again with the new password.</p>
      )}
      <ChangePasswordForm email={user.email} />
    </Page>
  );
});
