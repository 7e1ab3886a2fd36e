import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { entryDetail } from "@/db/queries/library-browse";
import { EntryAdmin } from "@/components/library/entry-admin";
import { EntryHistory, EntryMatches } from "@/components/library/entry-history";
import { EntryView } from "@/components/library/entry-view";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { FAILURE_ID } from "@/lib/library/entry";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { getPrincipal } from "@/server/auth";
import * as ui from "@/components/ui/styles";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `${decodeURIComponent(id).toUpperCase().slice(0, 20)} · Library` };
}

export default async function LibraryEntryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: raw } = await params;
  const user = await getPrincipal();
  if (!user) redirect(`/login?callbackUrl=/library/${encodeURIComponent(raw)}`);
  if (!can(user, "library.view")) return <p className={ui.notice}>{describeMissingPermission(user, "library.view")}</p>;
  const id = decodeURIComponent(raw).toUpperCase();
  if (!FAILURE_ID.test(id)) notFound();
  const detail = await entryDetail(getDb(), id);
  if (!detail) notFound();
  const { entry } = detail;
  return (
    <div className="grid gap-4">
      <Breadcrumb trail={[{ href: "/library", label: "Library" }]}><code>{entry.failure_id}</code></Breadcrumb>
      <header className="flex items-start justify-between gap-4">
        <div className="grid gap-2">
          <div className="flex flex-wrap items-center gap-2.5">
            <h1 className="text-xl font-[650]" data-testid="entry-title">
              {entry.title}
            </h1>
            <code className="text-muted" data-testid="entry-id">
              {entry.failure_id}
            </code>
            {entry.deprecated ? (
              <span className={ui.badge("neutral")} data-testid="entry-deprecated">
                Deprecated — not returned by queries
              </span>
            ) : null}
          </div>
        </div>
        {can(user, "library.contribute") ? (
          <Link className={ui.button("secondary", "sm")} href={`/contributions/new?edit=${encodeURIComponent(entry.failure_id)}`} data-testid="propose-edit">
            Propose an edit
          </Link>
        ) : null}
      </header>
      <EntryView entry={entry} revision={{ revision: entry.revision, libraryVersion: entry.libraryVersion }} />
      <section className="grid gap-2" aria-labelledby="matches-h">
        <h2 id="matches-h" className="text-[15px] font-[650]">
          Failures in missions that matched it {detail.matchCount ? <span className={ui.countPill()}>{detail.matchCount}</span> : null}
        </h2>
        <EntryMatches matches={detail.matches} total={detail.matchCount} />
      </section>
      <section className="grid gap-2" aria-labelledby="history-h">
        <h2 id="history-h" className="text-[15px] font-[650]">
          History <span className="text-muted text-sm">({detail.history.length} revision{detail.history.length === 1 ? "" : "s"}, newest first)</span>
        </h2>
        <EntryHistory history={detail.history} />
      </section>
      {can(user, "library.manage") ? <EntryAdmin failureId={entry.failure_id} deprecated={entry.deprecated} /> : null}
    </div>
  );
}
