import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { librarySummary } from "@/db/queries/library-browse";
import { ImportPanel } from "@/components/library/import-panel";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Import / export · Library" };

const REFUSED = { testId: "import-forbidden", children: <>Everyone can <Link href="/library">browse and query the library</Link>.</> };

export default consolePage({ path: "/library/import", permission: "library.manage", refused: REFUSED }, async () => {
  const summary = await librarySummary(getDb());
  return (
    <Page
      title="Import and export"
      above={<Breadcrumb trail={[{ href: "/library", label: "Library" }]}>Import and export</Breadcrumb>}
      intro={
        <>
          The library is at{" "}
          <Link className="text-link underline underline-offset-2" href="/library/versions">
            version {summary.version ?? "—"}
          </Link>{" "}
          with {summary.published} published entries{summary.deprecated ? ` and ${summary.deprecated} deprecated` : ""}. An import is one new version; roll it back from the versions page.
        </>
      }
    >
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
    </Page>
  );
});
