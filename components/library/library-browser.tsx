import Link from "next/link";
import type { EntrySummary } from "@/db/queries/library-browse";
import { CATEGORIES, RISK_LEVELS, SOURCES } from "@/lib/library/entry";
import { CellsTable, type CellColumn } from "../ui/data-table";
import { RiskBadge, SOURCE_LABEL, TagList } from "./badges";
import { libraryHref, listParam, oneParam, type Params } from "./href";
import * as ui from "@/components/ui/styles";

export interface BrowseResult {
  entries: EntrySummary[];
  total: number;
  page: number;
  per: number;
  pages: number;
}

/**
 * Browse mode of /library: a plain GET form (filters land in the URL, so a view can be shared and
 * works without JavaScript), popular tags, the entries table and paging.
 */
/** One filter of the browse form: a checkbox for each value, those in the address checked. */
function CheckGroup({ legend, name, options, checked, label = (v) => v }: { legend: string; name: string; options: readonly string[]; checked: Set<string>; label?: (v: string) => string }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((v) => (
        <label key={v} className="flex cursor-pointer items-baseline gap-1.5 text-[13px]">
          <input type="checkbox" name={name} value={v} defaultChecked={checked.has(v)} /> {label(v)}
        </label>
      ))}
    </fieldset>
  );
}

export function LibraryBrowser({ params, result, errors, tags }: { params: Params; result: BrowseResult | null; errors: Array<{ path: string; message: string }>; tags: Array<{ tag: string; n: number }> }) {
  const selected = (key: string) => new Set(listParam(params, key));
  const cats = selected("category");
  const risks = selected("risk");
  const sources = selected("source");
  const activeTags = listParam(params, "tag");
  return (
    <div className="grid gap-4">
      <form method="get" action="/library" className={ui.cx(ui.card, "grid gap-3 px-3.5 py-3 [&_:is(select,input[type=text])]:px-2 [&_:is(select,input[type=text])]:py-[5px]")} role="search" aria-label="Search and filter the library" data-testid="library-filters">
        <div className="flex gap-2 [&_input]:flex-1">
          <label className="sr-only" htmlFor="lib-q">
            Search
          </label>
          <input id="lib-q" type="text" name="q" defaultValue={oneParam(params, "q")} placeholder='Search symptoms, hidden causes, tags… (e.g. "drawer latch", FM-SW-0004)' maxLength={200} data-testid="library-q" />
          <button type="submit" className={ui.button("primary")} data-testid="library-apply">
            Search
          </button>
        </div>
        <div className="grid grid-cols-[repeat(auto-fit,minmax(190px,1fr))] items-start gap-x-4 gap-y-2.5 [&_fieldset]:m-0 [&_fieldset]:grid [&_fieldset]:min-w-0 [&_fieldset]:content-start [&_fieldset]:gap-[3px] [&_fieldset]:rounded-md [&_fieldset]:border [&_fieldset]:border-border [&_fieldset]:px-2.5 [&_fieldset]:pb-2 [&_fieldset]:pt-1.5 [&_legend]:px-1 [&_legend]:text-[12px] [&_legend]:font-semibold [&_legend]:uppercase [&_legend]:tracking-[0.03em] [&_legend]:text-muted">
          <CheckGroup legend="Category" name="category" options={CATEGORIES} checked={cats} />
          <CheckGroup legend="Risk level" name="risk" options={RISK_LEVELS} checked={risks} />
          <CheckGroup legend="Source" name="source" options={SOURCES} checked={sources} label={(s) => SOURCE_LABEL[s]} />
          <fieldset>
            <legend>Tags</legend>
            <label className="grid gap-[3px] text-sm text-muted">
              All of these (comma-separated)
              <input type="text" name="tag" defaultValue={activeTags.join(", ")} placeholder="drawer, furniture" maxLength={400} data-testid="library-tags" />
            </label>
          </fieldset>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <label className="grid gap-[3px] text-sm text-muted">
            Deprecated entries
            <select name="deprecated" defaultValue={oneParam(params, "deprecated") || "hide"} data-testid="library-deprecated">
              <option value="hide">Hidden</option>
              <option value="show">Shown</option>
              <option value="only">Only deprecated</option>
            </select>
          </label>
          <label className="grid gap-[3px] text-sm text-muted">
            Sort
            <select name="sort" defaultValue={oneParam(params, "sort")} data-testid="library-sort">
              <option value="">Best match / id</option>
              <option value="id">Id</option>
              <option value="title">Title</option>
              <option value="risk">Risk (highest first)</option>
              <option value="updated">Recently changed</option>
            </select>
          </label>
          <label className="grid gap-[3px] text-sm text-muted">
            Per page
            <select name="per" defaultValue={oneParam(params, "per") || "50"}>
              <option value="25">25</option>
              <option value="50">50</option>
              <option value="100">100</option>
            </select>
          </label>
          <button type="submit" className={ui.button("secondary", "sm")}>
            Apply filters
          </button>
          <Link href="/library" className="text-sm text-link underline underline-offset-2">
            Clear all
          </Link>
        </div>
      </form>

      {tags.length ? (
        <nav aria-label="Popular tags" className="flex flex-wrap items-center gap-[5px]">
          <span className="text-sm text-muted">Popular tags:</span>
          {tags.map((t) => {
            const on = activeTags.includes(t.tag);
            return (
              <Link key={t.tag} href={libraryHref(params, { tag: on ? activeTags.filter((x) => x !== t.tag) : [...activeTags, t.tag] })} className={ui.cx(ui.tag, "no-underline hover:border-border-strong", on && "!border-accent !bg-running-bg font-semibold")} aria-current={on ? "true" : undefined} data-testid="tag-chip">
                {t.tag} <span className="text-muted">{t.n}</span>
              </Link>
            );
          })}
        </nav>
      ) : null}

      {errors.length ? (
        <div className={ui.errorBox} role="alert" data-testid="library-filter-errors">
          <p>
            <strong>These filters are not valid</strong>, so nothing was searched. Change them, or <Link href="/library">clear all filters</Link>.
          </p>
          <ul className={ui.fieldErrors}>
            {errors.map((e) => (
              <li key={e.path + e.message}>
                <code>{e.path}</code>: {e.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {result ? <EntriesTable params={params} result={result} /> : null}
    </div>
  );
}

const ENTRY_COLUMNS: CellColumn[] = [
  { id: "id", header: "Id", className: "whitespace-nowrap" },
  { id: "title", header: "Hypothesis", rowHeader: true, alwaysVisible: true },
  { id: "category", header: "Category · source" },
  { id: "risk", header: "Risk" },
  { id: "symptom", header: "Surface symptom", className: "min-w-[220px] text-sm text-muted" },
  { id: "tags", header: "Tags", className: "min-w-[150px]" },
];

/** The entries of this page (the server sorts and pages: the form's Sort and the pager keep it in the URL). */
function EntriesTable({ params, result }: { params: Params; result: BrowseResult }) {
  const from = result.total ? (result.page - 1) * result.per + 1 : 0;
  const to = Math.min(result.total, result.page * result.per);
  return (
    <section className="grid gap-2" aria-label="Entries">
      {result.total ? (
        <p className="text-sm text-muted" data-testid="library-count" data-total={result.total}>
          {from === to ? `Entry ${from}` : `Entries ${from}–${to}`} of {result.total}
        </p>
      ) : null}
      <CellsTable
        label="Library entries"
        testId="library-table"
        columns={ENTRY_COLUMNS}
        empty={
          <>
            No entry matches these filters. Try fewer filters or other words — or, if you met this failure, <Link href="/contributions/new">propose an entry</Link>.
          </>
        }
        emptyTestId="library-empty"
        rows={result.entries.map((e) => ({
          key: e.failure_id,
          attrs: { "data-testid": "library-row", "data-id": e.failure_id },
          cells: {
            id: (
              <Link className="text-link underline underline-offset-2" href={`/library/${e.failure_id}`}>
                <code>{e.failure_id}</code>
              </Link>
            ),
            title: (
              <>
                <Link className="text-link underline underline-offset-2" href={`/library/${e.failure_id}`}>
                  {e.title}
                </Link>
                {e.deprecated ? (
                  <>
                    {" "}
                    <span className={ui.badge("neutral")} data-testid="deprecated-badge">
                      Deprecated
                    </span>
                  </>
                ) : null}
              </>
            ),
            category: (
              <>
                <span data-testid="row-category">{e.category}</span>
                <div className="text-sm text-muted">{SOURCE_LABEL[e.source] ?? e.source}</div>
              </>
            ),
            risk: <RiskBadge risk={e.risk_level} />,
            symptom: e.surface_symptom,
            tags: <TagList tags={e.context_tags} max={3} />,
          },
        }))}
      />
      {result.pages > 1 ? (
        <nav className="flex items-center justify-center gap-2.5" aria-label="Pages" data-testid="library-pager">
          {result.page > 1 ? (
            <Link className={ui.button("secondary", "sm")} href={libraryHref(params, { page: String(result.page - 1) })} rel="prev">
              ← Previous
            </Link>
          ) : null}
          <span className="text-sm text-muted">
            Page {result.page} of {result.pages}
          </span>
          {result.page < result.pages ? (
            <Link className={ui.button("secondary", "sm")} href={libraryHref(params, { page: String(result.page + 1) })} rel="next" data-testid="library-next">
              Next →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
