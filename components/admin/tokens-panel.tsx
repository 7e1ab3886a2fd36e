"use client";

import { useRouter } from "next/navigation";
import { useId, useMemo, useState } from "react";
import { createTokenAction, revokeTokenAction } from "@/app/(console)/account/actions";
import { revokeUserTokenAction } from "@/app/(console)/admin/users/actions";
import type { ApiTokenView } from "@/db/queries/api-tokens";
import { DataTable, type DataColumn } from "../ui/data-table";
import { StatusBadge } from "../ui/status";
import { RelativeTime } from "../ui/relative-time";
import { FieldMessages, FormErrorBox, ShownOnce, toFormError, useFormSubmit } from "./form-errors";
import { SubmitRow } from "../ui/submit-row";
import { useRowAction } from "../ui/use-row-action";
import * as ui from "@/components/ui/styles";

const STATE = {
  active: { icon: "✓", label: "Active", tone: "success" },
  expired: { icon: "⌛", label: "Expired", tone: "neutral" },
  revoked: { icon: "⊘", label: "Revoked", tone: "failed" },
} as const;

const time = (iso: string | null) => (iso ? Date.parse(iso) : null);

/**
 * API tokens: name, prefix, created, last used, expiry, state, and Revoke. `scope` "own" revokes one's
 * own (token.manage); "admin" any user's (user.manage).
 */
export function TokensTable({ tokens, scope }: { tokens: ApiTokenView[]; scope: "own" | "admin" }) {
  const { pending, outcome, run } = useRowAction();
  const revoke = (t: ApiTokenView) => run(() => (scope === "own" ? revokeTokenAction({ id: t.id }) : revokeUserTokenAction({ id: t.id })), `Token ${t.name} revoked.`);
  const columns = useMemo<DataColumn<ApiTokenView>[]>(
    () => [
      { id: "name", header: "Name", alwaysVisible: true, sortValue: (t) => t.name, rowAttr: "name", cell: (t) => t.name },
      { id: "token", header: "Token", cell: (t) => <code>{t.prefix}…</code> },
      { id: "created", header: "Created", sortValue: (t) => time(t.createdAt), cell: (t) => <RelativeTime iso={t.createdAt} /> },
      { id: "used", header: "Last used", sortValue: (t) => time(t.lastUsedAt), cell: (t) => <RelativeTime iso={t.lastUsedAt} empty="never" /> },
      { id: "expires", header: "Expires", sortValue: (t) => time(t.expiresAt), cell: (t) => <RelativeTime iso={t.expiresAt} empty="never" /> },
      {
        id: "state",
        header: "State",
        sortValue: (t) => t.state,
        rowAttr: "state",
        cell: (t) => (
          <>
            <StatusBadge looks={STATE} value={t.state} testId="token-state" />
            {t.revokedAt ? (
              <div className="text-muted text-sm">
                <RelativeTime iso={t.revokedAt} />
              </div>
            ) : null}
          </>
        ),
      },
      {
        id: "actions",
        header: <span className="sr-only">Actions</span>,
        label: "Actions",
        alwaysVisible: true,
        cell: (t) =>
          t.state === "active" ? (
            <button type="button" className={ui.button("danger")} disabled={pending} onClick={() => revoke(t)} data-testid="revoke-token" aria-label={`Revoke token ${t.name}`}>
              Revoke
            </button>
          ) : null,
      },
    ],
    // `revoke` closes over the row action and the scope only.
    [pending, scope],
  );
  return (
    <>
      {/* Only a refusal shows: the row's new state says that it went through. */}
      <FormErrorBox err={outcome && !outcome.ok ? toFormError({ message: outcome.text }) : null} testId="token-revoke-error" />
      <DataTable
        data={tokens}
        columns={columns}
        rowTestId="token-row"
        label="API tokens"
        testId="tokens-table"
        urlKey="tokens"
        empty="No API tokens."
        emptyTestId="tokens-empty"
      />
    </>
  );
}

/** Create a token: name and optional expiry; the token is shown once, with a curl example. */
export function NewTokenForm() {
  const router = useRouter();
  const ids = { name: useId(), days: useId(), e: useId() };
  const [token, setToken] = useState<{ name: string; value: string } | null>(null);
  const { err, pending, onSubmit } = useFormSubmit(async (f, form) => {
    const days = String(f.get("expiresInDays") ?? "").trim();
    const r = await createTokenAction({ name: String(f.get("name") ?? ""), expiresInDays: days ? Number(days) : null });
    if (r.status === "error") return toFormError(r.error);
    setToken({ name: r.data.apiToken.name, value: r.data.token });
    form.reset();
    router.refresh();
    return null;
  });

  return (
    <section className={ui.panel} aria-labelledby="new-token-title">
      <h2 className="text-[15px] font-[650]" id="new-token-title">
        New API token
      </h2>
      <form className={ui.formGrid} onSubmit={onSubmit} noValidate data-testid="new-token-form">
        <div className={ui.field}>
          <label htmlFor={ids.name}>Name (what uses it, e.g. ci-bot)</label>
          <input id={ids.name} name="name" type="text" autoComplete="off" aria-invalid={err?.fields.some((x) => x.path === "name") || undefined} aria-describedby={`${ids.e}-name`} />
          <FieldMessages id={`${ids.e}-name`} err={err} path="name" />
        </div>
        <div className={ui.field}>
          <label htmlFor={ids.days}>Expires after (days; empty: never)</label>
          <input id={ids.days} name="expiresInDays" type="text" inputMode="numeric" autoComplete="off" aria-invalid={err?.fields.some((x) => x.path === "expiresInDays") || undefined} aria-describedby={`${ids.e}-days`} />
          <FieldMessages id={`${ids.e}-days`} err={err} path="expiresInDays" />
        </div>
        <SubmitRow pending={pending} label="Create token" busy="Creating…" testId="new-token-submit" className={ui.gridFoot} />
      </form>
      <FormErrorBox err={err} testId="new-token-error" />
      <div aria-live="polite">
        {token ? (
          <>
            <ShownOnce label={`API token "${token.name}"`} value={token.value} note="Shown only now: store it in your agent's or script's secrets. It acts with your roles until you revoke it." testId="new-token" />
            <pre className="mt-2 mb-0 whitespace-pre-wrap break-all rounded-md border border-border bg-surface-2 px-2.5 py-2 text-sm" data-testid="token-curl">{`curl -H "Authorization: Bearer ${token.value}" ${typeof window === "undefined" ? "" : window.location.origin}/api/v1/missions`}</pre>
          </>
        ) : null}
      </div>
    </section>
  );
}
