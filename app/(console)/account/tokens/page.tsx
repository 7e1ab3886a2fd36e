import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { listApiTokens } from "@/db/queries/api-tokens";
import { AccountTabs } from "@/components/admin/account-tabs";
import { NewTokenForm, TokensTable } from "@/components/admin/tokens-panel";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { getPrincipal } from "@/server/auth";
import * as ui from "@/components/ui/styles";

export const metadata: Metadata = { title: "API tokens" };
export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const user = await getPrincipal();
  if (!user) redirect("/login?callbackUrl=/account/tokens");
  if (!can(user, "token.manage")) return <p className={ui.notice}>{describeMissingPermission(user, "token.manage")}</p>;
  const tokens = await listApiTokens(getDb(), user.id);
  return (
    <div className="grid gap-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <h1 className="text-xl font-[650]">API tokens</h1>
          <p className="text-muted">
            For agents and scripts: send a token as <code>Authorization: Bearer flt_…</code> to any <code>/api/v1</code> route. It acts as you ({user.roles.join(", ")}), and the audit log names the
            token. Revoke a token you no longer use.
          </p>
        </div>
      </header>
      <AccountTabs current="tokens" />
      <NewTokenForm />
      <TokensTable tokens={tokens} scope="own" />
    </div>
  );
}
