import type { Metadata } from "next";
import { Suspense } from "react";
import { getDb } from "@/db/client";
import { countFailureHistory, failureHistoryStats, historyFacets, listFailureHistory } from "@/db/queries/failure-history";
import { listSavedQueries } from "@/db/queries/saved-queries";
import { HistoryCharts } from "@/components/history/charts";
import { HistoryView, type HistoryInitial } from "@/components/history/history-view";
import { SavedQueriesMenu } from "@/components/ui/saved-queries";
import { filterParams, parseHistoryFilters, serializeHistoryFilters } from "@/lib/history/filters";
import { HISTORY_BUILT_IN_QUERIES } from "@/lib/history/saved-queries";
import { deleteHistoryQuery, saveHistoryQuery } from "./actions";
import type { HistoryFilters } from "@/lib/history/filters";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Failure history" };

type Params = Record<string, string | string[] | undefined>;

export default consolePage({ path: "/history", permission: "history.view" }, async (user, { searchParams }: { searchParams: Promise<Params> }) => {
  const params = await searchParams;
  const raw = filterParams(params);
  const parsed = parseHistoryFilters(params);
  const db = getDb();
  const now = Date.now();

  const [facets, saved, data] = await Promise.all([
    historyFacets(db),
    listSavedQueries(db, { scope: "failures", userId: user.id, builtIns: HISTORY_BUILT_IN_QUERIES }),
    parsed.ok
      ? Promise.all([listFailureHistory(db, { filters: parsed.filters, limit: 200, now }), countFailureHistory(db, parsed.filters, now)])
      : Promise.resolve(null),
  ]);
  const initial: HistoryInitial | null = data ? { rows: data[0].rows, nextCursor: data[0].nextCursor, total: data[1] } : null;

  return (
    <Page
      title="Failure history"
      intro={
        <>
          Every failure across missions: who recorded it and who started the mission, when and where (mission, phase, step), why (error type, root cause, matched library entry), and how it was resolved (decision, by whom, after how long). A row opens the mission&apos;s timeline at that event.
        </>
      }
    >
      <HistoryView
        raw={raw}
        facets={facets}
        initial={initial}
        errors={parsed.ok ? [] : parsed.errors}
        charts={
          parsed.ok ? (
            <Suspense fallback={<p className="text-muted" role="status">Loading the charts for these filters…</p>}>
              <ChartsOf filters={parsed.filters} now={now} />
            </Suspense>
          ) : null
        }
        savedQueries={
          <SavedQueriesMenu basePath="/history" currentQuery={parsed.ok ? serializeHistoryFilters(parsed.filters) : ""} current={{ mission: parsed.ok ? parsed.filters.mission : undefined }} items={saved} onSave={saveHistoryQuery} onDelete={deleteHistoryQuery} />
        }
      />
    </Page>
  );
});

/** The charts stream in after the table: over a whole unfiltered history their aggregates read every row. */
async function ChartsOf({ filters, now }: { filters: HistoryFilters; now: number }) {
  return <HistoryCharts stats={await failureHistoryStats(getDb(), filters, now)} />;
}
