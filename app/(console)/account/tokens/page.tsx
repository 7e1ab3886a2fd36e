import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listApiTokens } from "@/db/queries/api-tokens";
import { AccountTabs } from "@/components/admin/account-tabs";
import { NewTokenForm, TokensTable } from "@/components/admin/tokens-panel";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "API tokens" };

export default consolePage({ path: "/account/tokens", permission: "token.manage" }, async (user) => {
  const tokens = await listApiTokens(getDb(), user.id);
  return (
    <Page
      title="API tokens"
      intro={
        <>
          For agents and scripts: send a token as <code>Authorization: Bearer flt_…</code> to any <code>/api/v1</code> route. It acts as you ({user.roles.join(", ")}), and the audit log names the
          token. Revoke a token you no longer use.
        </>
      }
    >
      <AccountTabs current="tokens" />
      <NewTokenForm />
      <TokensTable tokens={tokens} scope="own" />
    </Page>
  );
});
