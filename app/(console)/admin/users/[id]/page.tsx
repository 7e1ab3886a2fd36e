import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { listApiTokens } from "@/db/queries/api-tokens";
import { getUserById, listUserAuditRows, toUserView, userActorId } from "@/db/queries/users";
import { TokensTable } from "@/components/admin/tokens-panel";
import { UserAccessForm, UserAccountActions } from "@/components/admin/user-editor";
import { RoleChips } from "@/components/admin/users-table";
import { UserStatusBadge } from "@/components/admin/user-status";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { CellsTable, type CellColumn } from "@/components/ui/data-table";
import { formatUtc } from "@/components/ui/format-utc";
import { RelativeTime } from "@/components/ui/relative-time";
import { idSchema } from "@/server/api";
import { consolePage } from "@/components/layout/console-page";

export const metadata: Metadata = { title: "User" };

const AUDIT_COLUMNS: CellColumn[] = [
  { id: "when", header: "When", className: "whitespace-nowrap", sortable: true },
  { id: "who", header: "Who", sortable: true },
  { id: "action", header: "Action", sortable: true },
  { id: "what", header: "What" },
  { id: "via", header: "Via", sortable: true },
];

type Props = { params: Promise<{ id: string }> };

export default consolePage({ path: async ({ params }: Props) => `/admin/users/${(await params).id}`, permission: "user.manage", refused: { alert: true, testId: "admin-refused" } }, async (me, { params }: Props) => {
  const { id } = await params;
  const db = getDb();
  const row = idSchema.safeParse(id).success ? await getUserById(db, id) : null;
  if (!row) notFound();
  const user = toUserView(row);
  const [tokens, audit] = await Promise.all([listApiTokens(db, user.id), listUserAuditRows(db, user.id, 25)]);
  const actor = userActorId(user.id);
  return (
    <div className="grid gap-4">
      <Breadcrumb trail={[{ href: "/admin/users", label: "Users" }]}>{user.name}</Breadcrumb>
      <header className="flex items-start justify-between gap-4">
        <div className="grid gap-2">
          <h1 className="text-xl font-[650]" data-testid="user-name">
            {user.name}
          </h1>
          <div className="flex flex-wrap items-center gap-2">
            <span>{user.email}</span>
            <UserStatusBadge user={user} />
            <RoleChips roles={user.roles} />
          </div>
          <p className="text-muted text-sm">
            Created {formatUtc(user.createdAt)} · last activity <RelativeTime iso={user.lastActiveAt} empty="never" />
            {user.deactivatedAt && !user.active ? <> · deactivated {formatUtc(user.deactivatedAt)}</> : null}
          </p>
        </div>
      </header>
      <div className="grid grid-cols-[repeat(auto-fit,minmax(340px,1fr))] items-start gap-3">
        {/* Not keyed by the saved values: a remount after the save's refresh would drop "✓ Saved" before anyone reads it. */}
        <UserAccessForm user={user} />
        <UserAccountActions user={user} isSelf={me.id === user.id} />
      </div>
      <section className="grid gap-2" aria-labelledby="tokens-title">
        <h2 className="text-[15px] font-[650]" id="tokens-title">
          API tokens
        </h2>
        <p className="text-muted text-sm">Tokens act with {user.name}&rsquo;s roles. {user.name} creates them on their account page; you can revoke any of them here.</p>
        <TokensTable tokens={tokens} scope="admin" />
      </section>
      <section className="grid gap-2" aria-labelledby="audit-title">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-[15px] font-[650]" id="audit-title">
            Recent activity
          </h2>
          <span className="flex flex-wrap items-center gap-2 text-sm">
            <Link className="text-link underline underline-offset-2" href={`/audit?actor=${encodeURIComponent(actor)}`}>
              Everything {user.name} did →
            </Link>
            <Link className="text-link underline underline-offset-2" href={`/audit?targetType=user&targetId=${user.id}`}>
              Every change to {user.name} →
            </Link>
          </span>
        </div>
        <CellsTable
          label={`Recent activity of ${user.name}`}
          testId="user-audit"
          urlKey="activity"
          empty="Nothing recorded yet."
          columns={AUDIT_COLUMNS}
          rows={audit.map((a) => ({
            key: String(a.id),
            attrs: { "data-testid": "user-audit-row", "data-action": a.action },
            cells: {
              when: formatUtc(a.at),
              who: a.actorName,
              action: (
                <>
                  <code>{a.action}</code>
                  {a.outcome === "refused" ? <span className="text-failed text-sm"> (refused)</span> : null}
                </>
              ),
              what: a.summary,
              via: a.via,
            },
            sort: { action: a.action },
          }))}
        />
      </section>
    </div>
  );
});
