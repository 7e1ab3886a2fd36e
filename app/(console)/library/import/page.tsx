import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { librarySummary } from "@/db/queries/library-browse";
import { ImportPanel } from "@/components/library/import-panel";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import * as ui from "@/components/ui/styles";
import { pageUser } from "@/server/page-access";
import { PageHeader } from "@/components/layout/page";

export const metadata: Metadata = { title: "Import / export · Library" };
export const dynamic = "force-dynamic";

export default async function LibraryImportPage() {
  const user = await pageUser("/library/import");
  if (!can(user, "library.manage")) {
    return (
      <p className={ui.notice} data-testid="import-forbidden">
        {describeMissingPermission(user, "library.manage")} Everyone can <Link href="/library">browse and query the library</Link>.
      </p>
    );
  }
  const summary = await librarySummary(getDb());
  return (
    <div className="grid gap-4">
      <Breadcrumb trail={[{ href: "/library", label: "Library" }]}>Import and export</Breadcrumb>
      <PageHeader title="Import and export">
        The library is at{" "}
        <Link className="text-link underline underline-offset-2" href="/library/versions">
          version {summary.version ?? "—"}
        </Link>{" "}
        with {summary.published} published entries{summary.deprecated ? ` and ${summary.deprecated} deprecated` : ""}. An import is one new version; roll it back from the versions page.
      </PageHeader>
      <section className={ui.cx(ui.card, "grid gap-2 px-3.5 py-3")} aria-labelledby="export-h">
        <h2 id="export-h" className="text-[15px] font-[650]">
          Export the published library
        </h2>
        <p className="text-muted text-sm">In the document&rsquo;s schema, sorted by id; deprecated entries are left out. The same file imports back unchanged.</p>
        <div className="flex flex-wrap items-center gap-2">
          <a className={ui.button("secondary", "sm")} href="/api/v1/library/export?format=yaml" download data-testid="export-yaml">
            Download YAML
          </a>
          <a className={ui.button("secondary", "sm")} href="/api/v1/library/export?format=json" download data-testid="export-json">
            Download JSON
          </a>
        </div>
      </section>
      <ImportPanel />
    </div>
  );
}
