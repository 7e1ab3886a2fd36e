import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { listVersions } from "@/db/queries/library-browse";
import { RollbackButton } from "@/components/library/rollback-button";
import { LibraryGrowthChart } from "@/components/library/growth-chart";
import { libraryGrowth } from "@/lib/library/growth";
import { RelativeTime } from "@/components/ui/relative-time";
import { can } from "@/lib/auth/roles";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Library versions" };

const CHANGE_TONE: Record<string, string> = { added: "success", edited: "running", deprecated: "neutral", restored: "partial" };
/** Changelogs longer than this are folded (the starter library's version 1 lists every entry). */
const SHOWN = 12;
const CHANGELOG = "m-0 flex list-none flex-wrap gap-x-4 gap-y-1 p-0 text-[13px]";

export default consolePage({ path: "/library/versions", permission: "library.view" }, async (user) => {
  const versions = await listVersions(getDb());
  const current = versions[0]?.version ?? 0;
  const manage = can(user, "library.manage");
  const item = (c: { failureId: string; change: string; revision: number }) => (
    <li key={`${c.failureId}-${c.revision}`}>
      <span className={ui.badge(CHANGE_TONE[c.change])}>{c.change}</span>{" "}
      <Link className="text-link underline underline-offset-2" href={`/library/${c.failureId}`}>
        <code>{c.failureId}</code>
      </Link>{" "}
      <span className="text-muted text-sm">r{c.revision}</span>
    </li>
  );
  return (
    <Page
      title="Library versions"
      above={<Breadcrumb trail={[{ href: "/library", label: "Library" }]}>Versions</Breadcrumb>}
      intro={
        <>
          Every change to the library is a numbered version with its changelog: approvals, imports, deprecations and rollbacks. A rollback is a new version too; history is never rewritten.
          {manage ? "" : " Rolling back needs the admin role."}
        </>
      }
    >
      {versions.length > 0 ? <LibraryGrowthChart points={libraryGrowth(versions)} /> : null}
      {versions.length === 0 ? <p className={ui.empty}>The library has no version yet: the seed loads the starter library as version 1.</p> : null}
      <ol className="m-0 grid list-none gap-2.5 p-0" data-testid="library-versions">
        {versions.map((v) => (
          <li key={v.version} id={`v${v.version}`} className={ui.cx(ui.card, "grid gap-2 px-3.5 py-3 [&_details]:mt-1")} data-testid="library-version-row" data-version={v.version}>
            <div className="flex flex-wrap items-center gap-x-3.5 gap-y-2">
              <h2 className="text-[15px] font-[650]">
                Version {v.version} {v.version === current ? <span className={ui.badge("success")}>Current</span> : null}
              </h2>
              <span className="text-muted text-sm">
                by <strong>{v.authorName}</strong>, <RelativeTime iso={v.createdAt} />
              </span>
              {manage && v.version < current ? (
                <div className="ml-auto">
                  <RollbackButton to={v.version} current={current} />
                </div>
              ) : null}
            </div>
            <p className="m-0" data-testid="version-summary">
              {v.summary}
            </p>
            <ul className={CHANGELOG}>{v.changelog.slice(0, SHOWN).map(item)}</ul>
            {v.changelog.length > SHOWN ? (
              <details>
                <summary className="text-link underline underline-offset-2 text-sm">{v.changelog.length - SHOWN} more changes</summary>
                <ul className={CHANGELOG}>{v.changelog.slice(SHOWN).map(item)}</ul>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </Page>
  );
});
