import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { countContributionsByStatus, listContributions } from "@/db/queries/contributions";
import { CONTRIBUTION_ORIGINS, CONTRIBUTION_STATUSES, type ContributionStatus } from "@/lib/library/contribution";
import { userActorId } from "@/db/queries/users";
import { ContributionStatusBadge, ORIGIN_LABELS, STATUS_LABELS } from "@/components/library-curation/status";
import { CellsTable, type CellColumn } from "@/components/ui/data-table";
import { formatUtc } from "@/components/ui/format-utc";
import { can } from "@/lib/auth/roles";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Contributions" };

const pick = <T extends string>(v: string | string[] | undefined, allowed: readonly T[]): T | undefined => (typeof v === "string" && (allowed as readonly string[]).includes(v) ? (v as T) : undefined);

const COLUMNS: CellColumn[] = [
  { id: "proposal", header: "Proposal", className: "w-2/5", alwaysVisible: true, sortable: true },
  { id: "kind", header: "Kind", sortable: true },
  { id: "status", header: "Status", sortable: true },
  { id: "origin", header: "Origin", sortable: true },
  { id: "author", header: "Author", sortable: true },
  { id: "updated", header: "Updated", className: "text-muted text-sm", sortable: true },
];

/** The review queue: tabs by status, filters by origin and mine / all. */
export default consolePage({ path: "/contributions", permission: "library.view" }, async (user, { searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) => {
  const sp = await searchParams;
  const isReviewer = can(user, "library.review");
  // Reviewers start on what waits for them; contributors on their own contributions.
  const status: ContributionStatus | undefined = sp.status === "all" ? undefined : (pick(sp.status, CONTRIBUTION_STATUSES) ?? (isReviewer ? "pending" : undefined));
  const origin = pick(sp.origin, CONTRIBUTION_ORIGINS);
  const mine = sp.mine === "1" || (sp.mine === undefined && !isReviewer && !sp.status);
  const me = userActorId(user.id);
  const db = getDb();
  const [rows, counts] = await Promise.all([listContributions(db, { status, origin, authorId: mine ? me : undefined, viewerId: me }), countContributionsByStatus(db, me, mine ? me : undefined)]);
  const href = (p: { status?: string | null; origin?: string | null; mine?: boolean }) => {
    const q = new URLSearchParams();
    const s = p.status === undefined ? (status ?? "all") : (p.status ?? "all");
    q.set("status", s);
    const o = p.origin === undefined ? origin : p.origin;
    if (o) q.set("origin", o);
    q.set("mine", (p.mine ?? mine) ? "1" : "0");
    return `/contributions?${q}`;
  };

  return (
    <Page
      title="Contributions"
      actions={
        can(user, "library.contribute") ? (
          <Link className={ui.button("primary")} href="/contributions/new" data-testid="new-contribution">
            Propose an entry
          </Link>
        ) : null
      }
      intro={
        <>
          Proposed new failure modes and edits for the library. {isReviewer ? "Reviewers approve, request changes or reject others' contributions, each with a reason." : "A reviewer approves each one before it is published."} Drafts that missions created for novel failures wait here for someone to complete them.
        </>
      }
    >
      <nav className={ui.tabs} aria-label="Status">
        <Link href={href({ status: null })} className={ui.tab(!status)} aria-current={!status ? "page" : undefined}>
          All
        </Link>
        {CONTRIBUTION_STATUSES.map((s) => (
          <Link key={s} href={href({ status: s })} className={ui.tab(status === s)} aria-current={status === s ? "page" : undefined} data-testid={`tab-${s}`}>
            {STATUS_LABELS[s]} <span className={ui.countPill()}>{counts[s]}</span>
          </Link>
        ))}
      </nav>
      <div className="flex flex-wrap items-center gap-2">
        <span className={ui.segmented} role="group" aria-label="Whose">
          <Link href={href({ mine: false })} className={ui.segment(!mine)} data-testid="filter-all">
            Everyone&rsquo;s
          </Link>
          <Link href={href({ mine: true })} className={ui.segment(mine)} data-testid="filter-mine">
            Mine
          </Link>
        </span>
        <span className={ui.segmented} role="group" aria-label="Origin">
          <Link href={href({ origin: null })} className={ui.segment(!origin)}>
            Any origin
          </Link>
          {CONTRIBUTION_ORIGINS.map((o) => (
            <Link key={o} href={href({ origin: o })} className={ui.segment(origin === o)} data-testid={`origin-${o}`}>
              {ORIGIN_LABELS[o]}
            </Link>
          ))}
        </span>
      </div>

      <CellsTable
        label="Contributions"
        testId="queue"
        urlKey=""
        empty={
          <>
            No contribution {status ? `is ${STATUS_LABELS[status].toLowerCase()}` : "here"}
            {mine ? " among yours" : ""}
            {origin ? ` from ${ORIGIN_LABELS[origin].toLowerCase()}` : ""}.
          </>
        }
        emptyTestId="queue-empty"
        columns={COLUMNS}
        rows={rows.map((c) => {
          const e = c.entry as Record<string, unknown>;
          const title = (e.title as string) || (e.surface_symptom as string)?.slice(0, 80) || "Untitled draft";
          return {
            key: c.id,
            attrs: { "data-testid": "queue-row", "data-id": c.id, "data-status": c.status },
            sort: { proposal: title, kind: c.kind, status: c.status, origin: c.origin, updated: Date.parse(String(c.updatedAt)) },
            cells: {
              proposal: (
                <>
                  {/* No prefetch: a reviewer opening a pending contribution takes it into review. */}
                  <Link prefetch={false} href={`/contributions/${c.id}`} className="font-semibold">
                    {title}
                  </Link>
                  {e.surface_symptom && e.title ? <div className={ui.cx("text-sm text-muted", ui.clamp2)}>{String(e.surface_symptom)}</div> : null}
                </>
              ),
              kind: c.kind === "edit" ? <>Edit of <code>{c.targetFailureId}</code></> : "New entry",
              status: <ContributionStatusBadge status={c.status} />,
              origin: (
                <>
                  {ORIGIN_LABELS[c.origin] ?? c.origin}
                  {c.missionId ? (
                    <div className="text-sm">
                      <Link href={`/missions/${c.missionId}`}>mission {c.missionId.slice(0, 8)}</Link>
                      {c.seq !== null ? `, event ${c.seq}` : ""}
                    </div>
                  ) : null}
                </>
              ),
              author: c.authorName,
              updated: formatUtc(c.updatedAt),
            },
          };
        })}
      />
    </Page>
  );
});
