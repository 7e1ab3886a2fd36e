import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { browseFiltersSchema, librarySummary, listEntries, popularTags, searchParamsObject } from "@/db/queries/library-browse";
import { LibraryQueryError, queryLibrary } from "@/db/queries/library-query";
import { LibraryBrowser, type BrowseResult } from "@/components/library/library-browser";
import { LibraryQueryView, type QueryView } from "@/components/library/library-query-view";
import { libraryHref, oneParam, type Params } from "@/components/library/href";
import { can } from "@/lib/auth/roles";
import { zodFieldErrors } from "@/server/action-result";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Failure-mode library" };

export default consolePage({ path: "/library", permission: "library.view" }, async (user, { searchParams }: { searchParams: Promise<Params> }) => {
  const params = await searchParams;
  const mode = oneParam(params, "mode") === "query" ? "query" : "browse";
  const db = getDb();
  const summary = await librarySummary(db);

  let body: React.ReactNode;
  if (mode === "query") {
    const symptom = oneParam(params, "observed_symptom");
    const context = oneParam(params, "environmental_context");
    let answer: QueryView | null = null;
    let errors: Array<{ path: string; message: string }> = [];
    if (symptom || oneParam(params, "object_class") || context) {
      const input = {
        observed_symptom: symptom,
        ...(oneParam(params, "object_class") ? { object_class: oneParam(params, "object_class") } : {}),
        ...(oneParam(params, "force_applied") ? { force_applied: oneParam(params, "force_applied") } : {}),
        ...(context ? { environmental_context: context.split(",").map((s) => s.trim()).filter(Boolean) } : {}),
      };
      try {
        answer = await queryLibrary(db, input, { limit: 5, includeEntry: true });
      } catch (e) {
        if (!(e instanceof LibraryQueryError)) throw e;
        errors = e.issues.map((i) => ({ path: i.field, message: i.message }));
      }
    }
    body = <LibraryQueryView params={params} answer={answer} errors={errors} />;
  } else {
    const parsed = browseFiltersSchema.safeParse(searchParamsObject(params));
    const [result, tags] = await Promise.all([parsed.success ? listEntries(db, parsed.data) : Promise.resolve<BrowseResult | null>(null), popularTags(db, 24)]);
    body = <LibraryBrowser params={params} result={result} errors={parsed.success ? [] : zodFieldErrors(parsed.error)} tags={tags} />;
  }

  return (
    <Page
      title="Failure-mode library"
      actions={
        <>
          <Link className={ui.button("secondary", "sm")} href="/library/versions">
            Versions &amp; changelog
          </Link>
          {can(user, "library.manage") ? (
            <Link className={ui.button("secondary", "sm")} href="/library/import" data-testid="library-import-link">
              Import / export
            </Link>
          ) : null}
          {can(user, "library.contribute") ? (
            <Link className={ui.button("primary", "sm")} href="/contributions/new">
              Propose an entry
            </Link>
          ) : null}
        </>
      }
      intro={
        <>
          What an agent consults when something fails instead of encoding caution in itself: observable symptom, hidden reality, a low-risk probe and a resolution for each known failure mode.{" "}
          <span data-testid="library-summary">
            <Link className="text-link underline underline-offset-2" href="/library/versions" data-testid="library-version">
              Version {summary.version ?? "—"}
            </Link>
            {" · "}
            {summary.published} published{summary.deprecated ? `, ${summary.deprecated} deprecated` : ""}
          </span>
        </>
      }
    >
      <nav className={ui.cx(ui.segmented, "justify-self-start")} aria-label="Mode">
        <Link href={libraryHref({}, {})} className={ui.segment(mode === "browse")} aria-current={mode === "browse" ? "page" : undefined} data-testid="mode-browse">
          Browse &amp; search
        </Link>
        <Link href={libraryHref({}, { mode: "query" })} className={ui.segment(mode === "query")} aria-current={mode === "query" ? "page" : undefined} data-testid="mode-query">
          Query as an agent would
        </Link>
      </nav>
      {body}
    </Page>
  );
});
