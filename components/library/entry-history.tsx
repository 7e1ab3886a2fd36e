import Link from "next/link";
import * as ui from "@/components/ui/styles";
import type { EntryMatch, EntryRevision } from "@/db/queries/library-browse";
import { CellsTable, type CellColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";

const CHANGE: Record<string, { label: string; tone: string }> = {
  added: { label: "Added", tone: "success" },
  edited: { label: "Edited", tone: "running" },
  deprecated: { label: "Deprecated", tone: "neutral" },
  restored: { label: "Restored", tone: "partial" },
};

function show(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v.join(", ") || "—";
  return JSON.stringify(v, null, 2);
}

const DIFF_PRE = "align-top [&_pre]:m-0 [&_pre]:max-h-[200px] [&_pre]:overflow-auto [&_pre]:text-[12px]";
const DIFF_COLUMNS: CellColumn[] = [
  { id: "field", header: "Field", className: "align-top" },
  { id: "before", header: "Before", className: `${DIFF_PRE} [&_pre]:text-failed` },
  { id: "after", header: "After", className: `${DIFF_PRE} [&_pre]:text-success` },
];

const MATCH_COLUMNS: CellColumn[] = [
  { id: "mission", header: "Mission", rowHeader: true, alwaysVisible: true, sortable: true },
  { id: "when", header: "When", sortable: true },
  { id: "rank", header: "Rank", numeric: true, sortable: true },
  { id: "score", header: "Score", numeric: true, sortable: true },
  { id: "outcome", header: "Outcome", sortable: true },
];

/** Every revision, newest first: who wrote it, who reviewed it, when, in which library version, and the field diff. */

/** The left rule of a revision, in its change's colour (literal classes). */
const RULE: Record<string, string> = { success: "!border-l-success", failed: "!border-l-failed", paused: "!border-l-paused", running: "!border-l-running", partial: "!border-l-partial", neutral: "!border-l-border-strong" };
export function EntryHistory({ history }: { history: EntryRevision[] }) {
  return (
    <ol className="m-0 grid list-none gap-1.5 p-0" data-testid="entry-history">
      {history.map((h) => {
        const c = CHANGE[h.change] ?? { label: h.change, tone: "neutral" };
        // The first revision's diff is every field from nothing: show it as "created".
        const diff = h.change === "added" ? [] : h.diff;
        return (
          <li key={h.revision} className={ui.cx("grid gap-1 rounded-md border border-l-[3px] border-border bg-surface px-3 py-2", RULE[c.tone] ?? RULE.neutral)} data-testid="revision" data-revision={h.revision} data-change={h.change}>
            <div className="flex flex-wrap items-baseline gap-2.5 text-[13px]">
              <span className="min-w-[2.5em] font-mono text-muted">r{h.revision}</span>
              <span className={ui.badge(c.tone)}>{c.label}</span>
              <span>
                by <strong>{h.authorName}</strong>
                {h.reviewerName ? (
                  <>
                    , reviewed by <strong>{h.reviewerName}</strong>
                  </>
                ) : null}
              </span>
              <Link className="text-link underline underline-offset-2 text-sm" href={`/library/versions#v${h.libraryVersion}`}>
                library version {h.libraryVersion}
              </Link>
              <span className="ml-auto text-sm text-muted">
                <RelativeTime iso={h.createdAt} />
              </span>
            </div>
            {h.versionSummary ? <p className="text-muted text-sm m-0">{h.versionSummary}</p> : null}
            {diff.length ? (
              <CellsTable
                label={`Fields changed in revision ${h.revision}`}
                urlKey={null}
                columnMenu={false}
                columns={DIFF_COLUMNS}
                className="mt-1"
                rows={diff.map((d) => ({
                  key: d.field,
                  attrs: { "data-testid": "diff-row", "data-field": d.field },
                  cells: { field: <code>{d.field}</code>, before: <pre>{show(d.before)}</pre>, after: <pre>{show(d.after)}</pre> },
                }))}
              />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

const OUTCOME_TONE: Record<string, string> = { confirmed: "partial", resolved: "success", rejected: "neutral", unresolved: "failed", skipped: "neutral" };

/** The failures in missions that matched this entry: mission, when, rank, score, outcome of the probe. */
export function EntryMatches({ matches, total }: { matches: EntryMatch[]; total: number }) {
  return (
    <div className="grid gap-2">
      <CellsTable
        label="Failures in missions that matched this entry"
        testId="entry-matches"
        urlKey="matches"
        empty="No failure in a mission has matched this entry yet."
        emptyTestId="entry-no-matches"
        columns={MATCH_COLUMNS}
        rows={matches.map((m) => ({
          key: `${m.missionId}-${m.seq}`,
          href: `/missions/${m.missionId}`,
          attrs: { "data-testid": "match-row" },
          cells: {
            mission: m.missionName,
            when: <RelativeTime iso={m.at} />,
            rank: m.rank,
            score: m.matchScore.toFixed(2),
            outcome: m.outcome ? <span className={ui.badge(OUTCOME_TONE[m.outcome] ?? "neutral")}>{m.outcome}</span> : <span className="text-muted">not probed</span>,
          },
          sort: { when: Date.parse(m.at), score: m.matchScore, outcome: m.outcome ?? null },
        }))}
      />
      {total > matches.length ? <p className="text-muted text-sm m-0 px-3 py-1.5">The latest {matches.length} of {total} matches.</p> : null}
    </div>
  );
}
