"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, type ReactNode } from "react";
import type { MissionEvent } from "@/lib/mission/events";
import { summarizeDiagnosis } from "@/lib/mission/reducer";
import { groupTimeline, summaryOf, toneOf, type TimelineGroup, type TimelineTone } from "@/lib/views/timeline";
import { DiagnosisView } from "../diagnosis/diagnosis-view";
import { RecoveryEventDetails } from "../diagnosis/recovery-view";
import { LibraryEventDetails } from "../gates/library-view";
import { formatUtc } from "../ui/format-utc";

/** Above this many events only the rows in view are rendered. */
const VIRTUAL_FROM = 200;
const ROW_PX = 30;

// Literal class names (Tailwind reads them from the source): the left rule and the type badge of each tone.
const RULE: Record<TimelineTone, string> = {
  success: "border-l-success",
  failed: "border-l-failed",
  partial: "border-l-partial",
  paused: "border-l-paused",
  running: "border-l-running",
  neutral: "border-l-border-strong",
};
const BADGE: Record<TimelineTone, string> = {
  success: "bg-success-bg text-success",
  failed: "bg-failed-bg text-failed",
  partial: "bg-partial-bg text-partial",
  paused: "bg-paused-bg text-paused",
  running: "bg-running-bg text-running",
  neutral: "bg-neutral-bg text-neutral",
};

export function actorLabel(actorId: string, actors: Record<string, string>): string {
  return actors[actorId] ?? actorId;
}

/** "14:03:07" in UTC: the same on the server and in the browser; the full time is in the title. */
const clock = (iso: string) => new Date(iso).toISOString().slice(11, 19);

/**
 * Every event of the log, oldest first, one row an event (time, seq, type, one-line summary, actor);
 * a row opens to its reason, impact, diagnosis, library walk, recovery and evidence. Consecutive events
 * of one step sit together under the step's label. Long logs render only the rows in view.
 */
export function Timeline({ events, actors, highlightSeq }: { events: readonly MissionEvent[]; actors: Record<string, string>; highlightSeq?: number }) {
  const groups = groupTimeline(events);
  const virtual = events.length > VIRTUAL_FROM;
  const viewport = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? groups.length : 0,
    getScrollElement: () => viewport.current,
    estimateSize: (i) => groups[i].events.length * ROW_PX + (groups[i].label ? 22 : 0),
    overscan: 8,
    getItemKey: (i) => groups[i].key,
  });

  // Opened from the failure history at one event: bring it into view (in a long log, render its rows first).
  const highlightGroup = highlightSeq === undefined ? -1 : groups.findIndex((g) => g.events.some((e) => e.seq === highlightSeq));
  useEffect(() => {
    if (highlightGroup < 0) return;
    if (virtual) virtualizer.scrollToIndex(highlightGroup, { align: "center" });
    else document.getElementById(`event-${highlightSeq}`)?.scrollIntoView({ block: "center" });
    // Once, when the page opens at that event; live events must not pull the view back.
  }, [highlightSeq]);

  const renderGroup = (g: TimelineGroup<MissionEvent>) => (
    <GroupRows group={g}>
      {g.events.map((e) => (
        <EventRow key={e.seq} event={e} actors={actors} highlighted={e.seq === highlightSeq} />
      ))}
    </GroupRows>
  );

  const header = (
    <div aria-hidden="true" className="grid grid-cols-[4.5rem_3rem_minmax(0,12rem)_minmax(0,1fr)_minmax(0,9rem)] gap-2 border-b border-border px-3 pb-1 text-xs uppercase tracking-wide text-muted">
      <span>Time (UTC)</span>
      <span>Seq</span>
      <span>Event</span>
      <span>What happened</span>
      <span className="text-right">By</span>
    </div>
  );

  if (!virtual) {
    return (
      <div className="rounded-md border border-border bg-surface py-1" data-testid="timeline">
        {header}
        <ol className="m-0 list-none p-0" aria-label="Event log">
          {groups.map((g) => (
            <li key={g.key}>{renderGroup(g)}</li>
          ))}
        </ol>
      </div>
    );
  }
  return (
    <div className="rounded-md border border-border bg-surface py-1" data-testid="timeline">
      {header}
      <div ref={viewport} className="max-h-[70vh] overflow-auto" data-testid="timeline-viewport">
        <ol className="relative m-0 list-none p-0" style={{ height: virtualizer.getTotalSize() }} aria-label={`Event log, ${events.length} events`}>
          {virtualizer.getVirtualItems().map((item) => (
            <li key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="absolute left-0 top-0 w-full" style={{ transform: `translateY(${item.start}px)` }}>
              {renderGroup(groups[item.index])}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

function GroupRows({ group, children }: { group: TimelineGroup<MissionEvent>; children: ReactNode }) {
  if (!group.label) return <ol className="m-0 list-none p-0">{children}</ol>;
  return (
    <div className="my-1 border-y border-border bg-surface-2/60" data-testid="timeline-group">
      <p className="m-0 px-3 pt-0.5 font-mono text-xs text-muted">{group.label}</p>
      <ol className="m-0 list-none p-0" aria-label={group.label}>
        {children}
      </ol>
    </div>
  );
}

function EventRow({ event: e, actors, highlighted }: { event: MissionEvent; actors: Record<string, string>; highlighted: boolean }) {
  const tone = toneOf(e);
  return (
    <li
      id={`event-${e.seq}`}
      className={`border-l-[3px] ${RULE[tone]} ${highlighted ? "tl-highlight bg-running-bg outline-2 outline-offset-[-2px] outline-focus" : ""}`}
      aria-current={highlighted ? "true" : undefined}
      data-testid="timeline-event"
      data-seq={e.seq}
      data-type={e.type}
    >
      <details open={highlighted} className="group">
        <summary className="grid min-h-[28px] cursor-pointer list-none grid-cols-[4.5rem_3rem_minmax(0,12rem)_minmax(0,1fr)_minmax(0,9rem)] items-center gap-2 px-3 py-0.5 text-[13px] hover:bg-surface-2 [&::-webkit-details-marker]:hidden">
          <time dateTime={e.at} title={formatUtc(e.at)} className="font-mono text-sm text-muted">
            {clock(e.at)}
          </time>
          <span className="font-mono text-sm text-muted" title="Sequence number">
            #{e.seq}
          </span>
          <code className={`w-fit max-w-full truncate rounded px-1.5 py-px text-sm font-semibold ${BADGE[tone]}`}>{e.type}</code>
          <span className="truncate" data-testid={e.type === "tool.failed" ? "tool-error" : undefined} title={summaryOf(e)}>
            <span aria-hidden="true" className="mr-1 inline-block text-muted transition-transform group-open:rotate-90">
              ›
            </span>
            {summaryOf(e)}
          </span>
          <span className="truncate text-right text-muted" title={e.actorId}>
            {actorLabel(e.actorId, actors)}
          </span>
        </summary>
        <EventDetails event={e} />
      </details>
    </li>
  );
}

function EventDetails({ event: e }: { event: MissionEvent }) {
  return (
    <div className="grid gap-2 border-t border-border bg-surface px-3 py-2 pl-[8.5rem] text-[13px]">
      {e.type === "diagnostic_reflection" ? <DiagnosisView diagnosis={summarizeDiagnosis(e.payload.diagnosis)} open={false} /> : e.type.startsWith("library.") ? <LibraryEventDetails event={e} /> : <RecoveryEventDetails event={e} />}
      <dl className="m-0 grid grid-cols-1 gap-x-4 gap-y-1 md:grid-cols-2">
        <div>
          <dt className="text-xs uppercase tracking-wide text-muted">Reason</dt>
          <dd className="m-0">{e.reason}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-muted">Impact</dt>
          <dd className="m-0">{e.impact}</dd>
        </div>
      </dl>
      {e.evidence || e.type === "tool.failed" ? (
        <details>
          <summary className="w-fit cursor-pointer text-sm text-link">Evidence{e.type === "tool.failed" ? " and error" : ""}</summary>
          <pre className="mt-1.5 max-h-80 overflow-auto rounded bg-surface-2 p-2">{JSON.stringify(e.type === "tool.failed" ? { evidence: e.evidence, error: e.payload.error } : e.evidence, null, 2)}</pre>
        </details>
      ) : null}
    </div>
  );
}
