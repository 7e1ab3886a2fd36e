import Link from "next/link";
import type { EntryMatch, EntryRevision } from "@/db/queries/library-browse";
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

/** Every revision, newest first: who wrote it, who reviewed it, when, in which library version, and the field diff. */
export function EntryHistory({ history }: { history: EntryRevision[] }) {
  return (
    <ol className="timeline" data-testid="entry-history">
      {history.map((h) => {
        const c = CHANGE[h.change] ?? { label: h.change, tone: "neutral" };
        // The first revision's diff is every field from nothing: show it as "created".
        const diff = h.change === "added" ? [] : h.diff;
        return (
          <li key={h.revision} className={`tl-event tone-border-${c.tone}`} data-testid="revision" data-revision={h.revision} data-change={h.change}>
            <div className="tl-head">
              <span className="tl-seq">r{h.revision}</span>
              <span className={`badge tone-${c.tone}`}>{c.label}</span>
              <span>
                by <strong>{h.authorName}</strong>
                {h.reviewerName ? (
                  <>
                    , reviewed by <strong>{h.reviewerName}</strong>
                  </>
                ) : null}
              </span>
              <Link className="link small" href={`/library/versions#v${h.libraryVersion}`}>
                library version {h.libraryVersion}
              </Link>
              <span className="tl-time">
                <RelativeTime iso={h.createdAt} />
              </span>
            </div>
            {h.versionSummary ? <p className="muted small lib-summary">{h.versionSummary}</p> : null}
            {diff.length ? (
              <table className="table lib-diff">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {diff.map((d) => (
                    <tr key={d.field} data-testid="diff-row" data-field={d.field}>
                      <td>
                        <code>{d.field}</code>
                      </td>
                      <td className="lib-before">
                        <pre>{show(d.before)}</pre>
                      </td>
                      <td className="lib-after">
                        <pre>{show(d.after)}</pre>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
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
  if (!matches.length) return <p className="notice" data-testid="entry-no-matches">No failure in a mission has matched this entry yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="entry-matches">
        <thead>
          <tr>
            <th scope="col">Mission</th>
            <th scope="col">When</th>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {matches.map((m) => (
            <tr key={`${m.missionId}-${m.seq}`} data-testid="match-row">
              <th scope="row">
                <Link className="link" href={`/missions/${m.missionId}`}>
                  {m.missionName}
                </Link>
              </th>
              <td>
                <RelativeTime iso={m.at} />
              </td>
              <td className="num">{m.rank}</td>
              <td className="num">{m.matchScore.toFixed(2)}</td>
              <td>{m.outcome ? <span className={`badge tone-${OUTCOME_TONE[m.outcome] ?? "neutral"}`}>{m.outcome}</span> : <span className="muted">not probed</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {total > matches.length ? <p className="muted small lib-more">The latest {matches.length} of {total} matches.</p> : null}
    </div>
  );
}
