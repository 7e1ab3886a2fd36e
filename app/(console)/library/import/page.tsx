import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { librarySummary } from "@/db/queries/library-browse";
import { ImportPanel } from "@/components/library/import-panel";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { getPrincipal } from "@/server/auth";

export const metadata: Metadata = { title: "Import / export · Library" };
export const dynamic = "force-dynamic";

export default async function LibraryImportPage() {
  const user = await getPrincipal();
  if (!user) redirect("/login?callbackUrl=/library/import");
  if (!can(user, "library.manage")) {
    return (
      <p className="notice" data-testid="import-forbidden">
        {describeMissingPermission(user, "library.manage")} Everyone can <Link href="/library">browse and query the library</Link>.
      </p>
    );
  }
  const summary = await librarySummary(getDb());
  return (
    <div className="stack">
      <Breadcrumb trail={[{ href: "/library", label: "Library" }]}>Import and export</Breadcrumb>
      <header className="page-head">
        <div className="stack-tight">
          <h1 className="page-title">Import and export</h1>
          <p className="muted">
            The library is at{" "}
            <Link className="link" href="/library/versions">
              version {summary.version ?? "—"}
            </Link>{" "}
            with {summary.published} published entries{summary.deprecated ? ` and ${summary.deprecated} deprecated` : ""}. An import is one new version; roll it back from the versions page.
          </p>
        </div>
      </header>
      <section className="card lib-export stack-tight" aria-labelledby="export-h">
        <h2 id="export-h" className="section-title">
          Export the published library
        </h2>
        <p className="muted small">In the document&rsquo;s schema, sorted by id; deprecated entries are left out. The same file imports back unchanged.</p>
        <div className="row">
          <a className="btn btn-secondary btn-sm" href="/api/v1/library/export?format=yaml" download data-testid="export-yaml">
            Download YAML
          </a>
          <a className="btn btn-secondary btn-sm" href="/api/v1/library/export?format=json" download data-testid="export-json">
            Download JSON
          </a>
        </div>
      </section>
      <ImportPanel />
    </div>
  );
}
