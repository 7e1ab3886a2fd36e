import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listApiTokens } from "@/db/queries/api-tokens";
import { AccountTabs } from "@/components/admin/account-tabs";
import { NewTokenForm, TokensTable } from "@/components/admin/tokens-panel";
import { can } from "@/lib/auth/roles";
import { pageUser } from "@/server/page-access";
import { PageHeader, Refused } from "@/components/layout/page";

export const metadata: Metadata = { title: "API tokens" };
export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const user = await pageUser("/account/tokens");
  if (!can(user, "token.manage")) return <Refused user={user} permission="token.manage" />;
  const tokens = await listApiTokens(getDb(), user.id);
  return (
    <div className="grid gap-4">
      <PageHeader title="API tokens">
        For agents and scripts: send a token as <code>Authorization: Bearer flt_…</code> to any <code>/api/v1</code> route. It acts as you ({user.roles.join(", ")}), and the audit log names the
        token. Revoke a token you no longer use.
      </PageHeader>
      <AccountTabs current="tokens" />
      <NewTokenForm />
      <TokensTable tokens={tokens} scope="own" />
    </div>
  );
}
