import Link from "next/link";
import type { MissionEvent } from "@/lib/mission/events";
import type { HypothesisOutcome, LibraryGateInfo } from "@/lib/mission/library";
import { formatArgs } from "../diagnosis/recovery-view";
import { RiskBadge } from "../library/badges";
import * as ui from "@/components/ui/styles";

/**
 * The failure-mode library in missions (000 Output Protocol) as the console shows it: the hypotheses a
 * failure matched, each probe with its evidence and verdict, resolutions, novel failures with their
 * draft, and the exhausted escalation; on gates, the hypothesis being asked about. Library text is
 * contributed: it is rendered as React text only, never as HTML.
 */

const score = (x: number) => x.toFixed(2);
const OUTCOME_TONE: Record<HypothesisOutcome, ui.Tone> = { confirmed: "running", resolved: "success", rejected: "neutral", skipped: "neutral", unresolved: "failed" };

const EVENT = ui.eventDetails;
/** A match score beside an entry. */
const SCORE = "rounded border border-border bg-surface-2 px-[5px] font-mono text-[12px] text-fg";

function EntryLink({ id, title }: { id: string; title?: string | null }) {
  return (
    <>
      <Link href={`/library/${id}`} className="font-mono text-sm text-link underline underline-offset-2">
        {id}
      </Link>
      {title ? <strong> {title}</strong> : null}
    </>
  );
}

/** What the timeline shows for `library.*` events; null for other events. */
export function LibraryEventDetails({ event: e }: { event: MissionEvent }) {
  switch (e.type) {
    case "library.hypotheses":
      if (e.payload.error) return <p className={ui.outcome.error}>The library could not be queried: {e.payload.error}</p>;
      return (
        <div className={EVENT} data-testid="library-hypotheses">
          <p className="text-sm text-muted">
            Query: “{e.payload.query.observed_symptom}” · {e.payload.query.object_class}
            {e.payload.query.force_applied ? ` · ${e.payload.query.force_applied}` : ""}
            {e.payload.libraryVersion !== null ? ` · library version ${e.payload.libraryVersion}` : ""}
          </p>
          {e.payload.abstained ? (
            <p>
              <strong>No match</strong>: the library abstains (no entry scored above its threshold).
            </p>
          ) : (
            <ol className="my-1 grid gap-[3px] pl-[22px]">
              {e.payload.hypotheses.map((h) => (
                <li key={h.failure_id} data-testid="library-hypothesis">
                  <EntryLink id={h.failure_id} title={h.title} /> <span className={SCORE} title="match_score: calibrated probability that this entry is right">{score(h.match_score)}</span> <RiskBadge risk={h.risk_level} />{" "}
                  <span className="text-muted text-sm">{h.probe_action ? "probe action" : "operator probe"}{h.resolution_action ? " · resolution action" : ""}</span>
                </li>
              ))}
            </ol>
          )}
        </div>
      );
    case "library.probe": {
      const p = e.payload;
      return (
        <div className={EVENT} data-testid="library-probe">
          <p>
            <span className={ui.badge(p.verdict === "confirmed" ? "running" : p.verdict === "inconclusive" ? "partial" : "neutral")} data-testid="library-verdict">
              {p.verdict}
            </span>{" "}
            <EntryLink id={p.failure_id} /> · {p.by === "action" ? "probe action" : "operator"}
            {p.call ? (
              <>
                {" "}
                <code>{formatArgs(p.call.tool, p.call.args)}</code>
              </>
            ) : null}
          </p>
          {p.evidence ? (
            <p className="text-sm text-muted">
              {p.evidence.check} expected {JSON.stringify(p.evidence.expected)}, got {JSON.stringify(p.evidence.actual)}
            </p>
          ) : null}
          {p.output ? <pre className="mt-0.5 mb-1 max-h-40 overflow-auto rounded bg-surface-2 px-2 py-1.5 text-[12px] break-words whitespace-pre-wrap">{p.output}</pre> : null}
        </div>
      );
    }
    case "library.resolution": {
      const p = e.payload;
      return (
        <p className={p.ok ? ui.outcome.ok : ui.outcome.error} data-testid="library-resolution">
          {p.ok ? "✓" : "✕"} Resolution of <EntryLink id={p.failure_id} /> {p.by === "action" ? "by its action" : "by an operator"}
          {p.call ? (
            <>
              {" "}
              <code>{formatArgs(p.call.tool, p.call.args)}</code>
            </>
          ) : null}
          {p.output ? <span className="text-muted"> {p.output}</span> : null}
        </p>
      );
    }
    case "library.resolved":
      return (
        <p className={e.payload.outcome === "resolved" ? ui.outcome.ok : ui.outcome.error} data-testid="library-resolved">
          <strong>{e.payload.outcome === "resolved" ? "Resolved" : "Not resolved"}</strong> by <EntryLink id={e.payload.failure_id} />: the step&apos;s own evidence decided.
        </p>
      );
    case "library.novel":
      return (
        <div className={EVENT} data-testid="library-novel">
          <p>
            <span className={ui.badge("partial")}>Novel failure</span> A draft entry ({e.payload.draft.category}, {e.payload.draft.risk_level}) waits for reviewers:{" "}
            <Link href={`/contributions/${e.payload.contributionId}`} className="text-link underline underline-offset-2" data-testid="library-draft-link">
              {e.payload.draft.title}
            </Link>
          </p>
        </div>
      );
    case "library.exhausted":
      return (
        <div className={EVENT} data-testid="library-exhausted">
          <p>
            <span className={ui.badge("failed")}>Flagged for investigation</span> Every hypothesis was tried:
          </p>
          <TriedList tried={e.payload.tried} />
        </div>
      );
    default:
      return null;
  }
}

function TriedList({ tried }: { tried: LibraryGateInfo["tried"] }) {
  return (
    <ul className="mt-0.5 mb-1.5 pl-5 text-sm">
      {tried.map((t) => (
        <li key={t.failure_id}>
          <EntryLink id={t.failure_id} title={t.title} /> <span className={ui.TONE_TEXT[t.outcome ? OUTCOME_TONE[t.outcome] : "neutral"]}>{t.outcome ?? "not reached"}</span>
        </li>
      ))}
    </ul>
  );
}

/** The hypothesis a library gate asks about (or the exhausted escalation), with its probe, resolution and risk. */
export function LibraryGateView({ info }: { info: LibraryGateInfo }) {
  return (
    <div className="mt-2 rounded-md border border-l-[3px] border-border border-l-accent bg-surface-2 px-2.5 py-2 text-[13.5px] [&_p]:mt-0 [&_p]:mb-1.5" data-testid="library-gate">
      {info.stage === "exhausted" ? (
        <p>
          <span className={ui.badge("failed")} data-testid="library-flagged">
            Flagged for investigation
          </span>{" "}
          Every hypothesis of the failure-mode library was rejected or did not fix the step.
        </p>
      ) : (
        <>
          <p>
            Hypothesis {info.rank} of {info.total}: <EntryLink id={info.failure_id!} title={info.title} /> {info.match_score !== null ? <span className={SCORE}>{score(info.match_score)}</span> : null} {info.risk_level ? <RiskBadge risk={info.risk_level} /> : null}
          </p>
          {info.risk_notes ? <p className="text-sm text-muted">Risk: {info.risk_notes}</p> : null}
          <dl className="mx-0 mt-0 mb-1.5 grid gap-1 [&_dd]:m-0 [&_dd]:break-words [&_dd]:whitespace-pre-wrap [&_dt]:text-sm [&_dt]:font-semibold [&_dt]:text-muted">
            <div>
              <dt>Diagnostic probe</dt>
              <dd data-testid="library-probe-text">{info.diagnostic_probe}</dd>
            </div>
            <div>
              <dt>Resolution path</dt>
              <dd>{info.resolution_path}</dd>
            </div>
          </dl>
        </>
      )}
      {info.tried.length ? (
        <>
          <p className="text-sm text-muted">Tried so far:</p>
          <TriedList tried={info.tried} />
        </>
      ) : null}
    </div>
  );
}
