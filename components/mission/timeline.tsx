import type { MissionEvent } from "@/lib/mission/events";
import { RelativeTime } from "../ui/relative-time";
import { DiagnosisView } from "../diagnosis/diagnosis-view";
import { RecoveryEventDetails } from "../diagnosis/recovery-view";
import { LibraryEventDetails } from "../gates/library-view";
import { summarizeDiagnosis } from "@/lib/mission/reducer";

const TONE: Partial<Record<MissionEvent["type"], string>> = {
  "tool.failed": "failed",
  "agent.failed": "failed",
  "gate.opened": "paused",
  "gate.resolved": "running",
  "mission.warning": "partial",
  "recovery.loop_detected": "failed",
  "recovery.started": "running",
  "recovery.fast_path": "running",
  "tool.succeeded": "success",
  "agent.completed": "success",
  "phase.completed": "success",
  "library.hypotheses": "running",
  "library.novel": "partial",
  "library.exhausted": "failed",
  "mission.aborted": "failed",
};

export function actorLabel(actorId: string, actors: Record<string, string>): string {
  return actors[actorId] ?? actorId;
}

/** Every event of the log, oldest first: seq, type, actor, time, reason, impact, evidence. */
export function Timeline({ events, actors, highlightSeq }: { events: readonly MissionEvent[]; actors: Record<string, string>; highlightSeq?: number }) {
  return (
    <ol className="timeline" aria-label="Event log">
      {events.map((e) => (
        <li
          key={e.seq}
          id={`event-${e.seq}`}
          className={`tl-event tone-border-${TONE[e.type] ?? "neutral"}${e.seq === highlightSeq ? " tl-highlight" : ""}`}
          aria-current={e.seq === highlightSeq ? "true" : undefined}
          data-testid="timeline-event"
          data-seq={e.seq}
          data-type={e.type}
        >
          <div className="tl-head">
            <span className="tl-seq" title="Sequence number">
              #{e.seq}
            </span>
            <code className={`tl-type tone-text-${TONE[e.type] ?? "neutral"}`}>{e.type}</code>
            <span className="tl-actor" title={e.actorId}>
              {actorLabel(e.actorId, actors)}
            </span>
            <span className="tl-time">
              <RelativeTime iso={e.at} />
            </span>
          </div>
          {e.type === "tool.failed" ? (
            <p className="tl-error" data-testid="tool-error">
              <code className="err-code">{e.payload.error.code}</code> {e.payload.error.message}
              {e.payload.error.exitCode != null ? <span className="muted"> (exit code {e.payload.error.exitCode})</span> : null}
              {e.payload.error.status !== undefined ? <span className="muted"> (HTTP {e.payload.error.status})</span> : null}
            </p>
          ) : null}
          {e.type === "diagnostic_reflection" ? <DiagnosisView diagnosis={summarizeDiagnosis(e.payload.diagnosis)} open={false} /> : e.type.startsWith("library.") ? <LibraryEventDetails event={e} /> : <RecoveryEventDetails event={e} />}
          <dl className="tl-body">
            <div>
              <dt>Reason</dt>
              <dd>{e.reason}</dd>
            </div>
            <div>
              <dt>Impact</dt>
              <dd>{e.impact}</dd>
            </div>
          </dl>
          {e.evidence || e.type === "tool.failed" ? (
            <details className="tl-evidence">
              <summary>Evidence{e.type === "tool.failed" ? " and error" : ""}</summary>
              <pre>{JSON.stringify(e.type === "tool.failed" ? { evidence: e.evidence, error: e.payload.error } : e.evidence, null, 2)}</pre>
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
