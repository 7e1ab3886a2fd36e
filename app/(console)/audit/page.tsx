import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { countAuditLog, listAuditLog } from "@/db/queries/audit-log";
import { listSavedQueries } from "@/db/queries/saved-queries";
import { listActors } from "@/db/queries/users";
import { AuditView, type AuditInitial } from "@/components/audit/audit-view";
import { SavedQueriesMenu } from "@/components/ui/saved-queries";
import { auditFilterParams, parseAuditFilters, serializeAuditFilters } from "@/lib/audit/filters";
import { AUDIT_BUILT_IN_QUERIES } from "@/lib/audit/saved-queries";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { deleteAuditQuery, saveAuditQuery } from "./actions";
import * as ui from "@/components/ui/styles";
import { pageUser } from "@/server/page-access";
import { PageHeader } from "@/components/layout/page";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

type Params = Record<string, string | string[] | undefined>;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Params> }) {
  const user = await pageUser("/audit");
  if (!can(user, "audit.view")) {
    return (
      <div className="grid gap-4">
        <h1 className="text-xl font-[650]">Audit log</h1>
        <p className={ui.notice} role="alert" data-testid="audit-refused">
          Not allowed: {describeMissingPermission(user, "audit.view")}
        </p>
      </div>
    );
  }
  const params = await searchParams;
  const parsed = parseAuditFilters(params);
  const db = getDb();
  const [actors, saved, data] = await Promise.all([
    listActors(db),
    listSavedQueries(db, { scope: "audit", userId: user.id, builtIns: AUDIT_BUILT_IN_QUERIES }),
    parsed.ok ? Promise.all([listAuditLog(db, parsed.filters, { limit: 200 }), countAuditLog(db, parsed.filters)]) : Promise.resolve(null),
  ]);
  const initial: AuditInitial | null = data ? { entries: data[0].entries, nextCursor: data[0].nextCursor, total: data[1] } : null;

  return (
    <div className="grid gap-4 [&>*]:min-w-0">
      <PageHeader title="Audit log">
        Every action a person or an agent took: sign-ins, missions started, paused and resumed, gate decisions, library contributions and reviews, imports, role, token and policy changes. Who, what, when, from
        where, and the state before and after. The log is append-only: the database refuses to change or delete a row, for everyone.
      </PageHeader>
      <AuditView
        raw={auditFilterParams(params)}
        actors={actors.map((a) => ({ id: a.id, name: a.displayName })).sort((a, b) => a.name.localeCompare(b.name))}
        initial={initial}
        errors={parsed.ok ? [] : parsed.errors}
        savedQueries={
          <SavedQueriesMenu basePath="/audit" currentQuery={parsed.ok ? serializeAuditFilters(parsed.filters) : ""} current={{ mission: parsed.ok ? parsed.filters.mission : undefined }} items={saved} onSave={saveAuditQuery} onDelete={deleteAuditQuery} />
        }
      />
    </div>
  );
}
