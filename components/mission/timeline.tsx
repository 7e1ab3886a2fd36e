"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { EVENT_TYPES, type MissionEvent } from "@/lib/mission/events";
import { fetchEventPage } from "../api-client";
import { queryKeys } from "../query-keys";
import { summarizeDiagnosis } from "@/lib/mission/reducer";
import { groupTimeline, summaryOf, toneOf, type TimelineGroup, type TimelineTone } from "@/lib/views/timeline";
import { DiagnosisView } from "../diagnosis/diagnosis-view";
import { RecoveryEventDetails } from "../diagnosis/recovery-view";
import { LibraryEventDetails } from "../gates/library-view";
import { FilterSelect } from "../ui/filter-parts";
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

/** How many events a page of the timeline fetches. */
const PAGE = 300;

type PageParam = { before?: number; after?: number };

export interface TimelineFilter {
  type: string;
  agent: string;
}
const NO_FILTER: TimelineFilter = { type: "", agent: "" };
const matches = (e: MissionEvent, f: TimelineFilter) => (!f.type || e.type === f.type) && (!f.agent || (e.payload as { agent?: unknown }).agent === f.agent);
const count = (n: number) => n.toLocaleString("en-US");

/**
 * Every event of the log, oldest first, one row an event (time, seq, type, one-line summary, actor);
 * a row opens to its reason, impact, diagnosis, library walk, recovery and evidence. Consecutive events
 * of one step sit together under the step's label. Long logs render only the rows in view.
 *
 * A log the page received only a window of (`eventsWindow`: the newest events, or those around
 * `highlightSeq`) pages in the rest from GET /api/v1/missions/:id/events as the operator scrolls, keyset by
 * seq in both directions; a filter (type, agent) asks the server for matching events only. Live events
 * (`events` past the window) are appended once the newest page is loaded.
 */
export function Timeline({
  missionId,
  total,
  events,
  eventsWindow,
  actors,
  highlightSeq,
  agents = [],
}: {
  missionId: string;
  /** Events in the log (the mission's seq). */
  total: number;
  events: readonly MissionEvent[];
  eventsWindow?: { hasOlder: boolean; hasNewer: boolean };
  actors: Record<string, string>;
  highlightSeq?: number;
  /** The mission's agents (the agent filter's choices). */
  agents?: readonly string[];
}) {
  const [filter, setFilter] = useState<TimelineFilter>(NO_FILTER);
  const filtered = filter.type !== "" || filter.agent !== "";
  const paged = eventsWindow !== undefined && (eventsWindow.hasOlder || eventsWindow.hasNewer);
  const pagesEnabled = paged || filtered;
  // The window the page opened with: the first page of the unfiltered log.
  const [opening] = useState(() => ({ events: [...events], hasOlder: eventsWindow?.hasOlder ?? false, hasNewer: eventsWindow?.hasNewer ?? false }));
  const query = useInfiniteQuery({
    queryKey: queryKeys.missions.eventPages(missionId, filter.type, filter.agent),
    enabled: pagesEnabled,
    queryFn: ({ pageParam }: { pageParam: PageParam }) => fetchEventPage(missionId, { ...pageParam, limit: PAGE, type: filter.type || undefined, agent: filter.agent || undefined }),
    initialPageParam: { before: total + 1 } as PageParam,
    getPreviousPageParam: (first) => (first.hasOlder && first.events.length > 0 ? { before: first.events[0].seq } : undefined),
    getNextPageParam: (last) => (last.hasNewer && last.events.length > 0 ? { after: last.events.at(-1)!.seq } : undefined),
    initialData: filtered || !paged ? undefined : { pages: [{ ...opening, lastSeq: total, actors: {} }], pageParams: [{ before: total + 1 } as PageParam] },
    // Pages of an append-only log never change: never refetched (the live tail comes over the socket).
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  const pages = query.data?.pages;
  const loaded = useMemo(() => {
    if (!pagesEnabled) return events;
    const list = (pages ?? []).flatMap((p) => p.events);
    const last = pages?.at(-1);
    const max = list.at(-1)?.seq ?? 0;
    // The newest page is loaded: what the socket brought since follows it.
    return last && !last.hasNewer ? [...list, ...events.filter((e) => e.seq > max && matches(e, filter))] : list;
  }, [pagesEnabled, pages, events, filter]);
  const names = useMemo(() => Object.assign({}, ...(pages ?? []).map((p) => p.actors), actors) as Record<string, string>, [pages, actors]);
  const groups = useMemo(() => groupTimeline(loaded), [loaded]);
  const virtual = pagesEnabled || events.length > VIRTUAL_FROM;
  const viewport = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? groups.length : 0,
    getScrollElement: () => viewport.current,
    estimateSize: (i) => groups[i].events.length * ROW_PX + (groups[i].label ? 22 : 0),
    overscan: 4,
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

  // A paged log opens at its newest events (and a new filter at its newest matches), unless opened at one event.
  const toEnd = useRef(paged && highlightGroup < 0);
  useEffect(() => {
    if (!toEnd.current || groups.length === 0) return;
    toEnd.current = false;
    virtualizer.scrollToIndex(groups.length - 1, { align: "end" });
  }, [groups.length]);

  // Older events put above the view keep it where it was.
  const firstSeq = loaded[0]?.seq;
  const before = useRef<{ firstSeq?: number; size: number }>({ size: 0 });
  useLayoutEffect(() => {
    const size = virtualizer.getTotalSize();
    const el = viewport.current;
    if (el && firstSeq !== undefined && before.current.firstSeq !== undefined && firstSeq < before.current.firstSeq && !toEnd.current) el.scrollTop += size - before.current.size;
    before.current = { firstSeq, size };
  });

  // Pages load once the log shows where it opened (newest or highlighted): not for the rows of the first frame.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => setReady(true))));
    return () => cancelAnimationFrame(frame);
  }, []);

  // Near either end of what is loaded: fetch the next page that way.
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? -1;
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (!pagesEnabled || !ready || firstIndex < 0 || toEnd.current) return;
    if (firstIndex < 4 && query.hasPreviousPage && !query.isFetchingPreviousPage) void query.fetchPreviousPage();
    if (lastIndex >= groups.length - 4 && query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  }, [pagesEnabled, ready, firstIndex, lastIndex, groups.length, query.hasPreviousPage, query.hasNextPage, query.isFetchingPreviousPage, query.isFetchingNextPage]);

  const renderGroup = (g: TimelineGroup<MissionEvent>) => (
    <GroupRows group={g}>
      {g.events.map((e) => (
        <EventRow key={e.seq} event={e} actors={names} highlighted={e.seq === highlightSeq} lazy={pagesEnabled} />
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

  // Filters and what is loaded: only for a log long enough to be paged, or once a filter is chosen.
  const controls =
    paged || filtered ? (
      <TimelineControls
        filter={filter}
        onFilter={(f) => {
          toEnd.current = true;
          setFilter(f);
        }}
        agents={agents}
        status={loadedStatus({ total, loaded, filter, filtered, pending: query.isPending && pagesEnabled, older: query.hasPreviousPage, newer: query.hasNextPage, fetching: query.isFetchingPreviousPage || query.isFetchingNextPage, error: query.error })}
      />
    ) : null;

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
    <div className="grid gap-2">
      {controls}
      <div className="rounded-md border border-border bg-surface py-1" data-testid="timeline">
        {header}
        <div ref={viewport} className="max-h-[70vh] overflow-auto" data-testid="timeline-viewport">
          <ol className="relative m-0 list-none p-0" style={{ height: virtualizer.getTotalSize() }} aria-label={`Event log, ${count(total)} events${filtered ? ", filtered" : ""}`}>
            {items.map((item) => (
              <li key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="absolute left-0 top-0 w-full" style={{ transform: `translateY(${item.start}px)` }}>
                {renderGroup(groups[item.index])}
              </li>
            ))}
          </ol>
        </div>
      </div>
    </div>
  );
}

/** "Events #49,701–#50,000 of 50,000 loaded · older events load as you scroll up". */
function loadedStatus(s: { total: number; loaded: readonly MissionEvent[]; filter: TimelineFilter; filtered: boolean; pending: boolean; older: boolean; newer: boolean; fetching: boolean; error: Error | null }): string {
  if (s.error) return `Could not load events: ${s.error.message}`;
  if (s.pending) return s.filtered ? "Loading matching events…" : "Loading events…";
  const first = s.loaded[0]?.seq;
  const last = s.loaded.at(-1)?.seq;
  const span = first === undefined ? "" : first === last ? ` (#${count(first)})` : ` (#${count(first)}–#${count(last!)})`;
  const more = [s.older ? "older" : null, s.newer ? "newer" : null].filter(Boolean).join(" and ");
  const tail = s.fetching ? " · loading more…" : more ? ` · ${more} load as you scroll` : s.filtered ? " · all of them" : "";
  if (s.filtered) return `${count(s.loaded.length)} matching event${s.loaded.length === 1 ? "" : "s"} loaded${span}${tail}`;
  return `${count(s.loaded.length)} of ${count(s.total)} events loaded${span}${tail}`;
}

function TimelineControls({ filter, onFilter, agents, status }: { filter: TimelineFilter; onFilter: (f: TimelineFilter) => void; agents: readonly string[]; status: string }) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="timeline-controls">
      <FilterSelect look="inline" id={`${id}-type`} label="Type" value={filter.type} options={EVENT_TYPES} onChange={(type) => onFilter({ ...filter, type })} any="All types" testId="timeline-filter-type" />
      {agents.length > 0 ? <FilterSelect look="inline" id={`${id}-agent`} label="Agent" value={filter.agent} options={agents} onChange={(agent) => onFilter({ ...filter, agent })} any="All agents" testId="timeline-filter-agent" /> : null}
      <span className="text-muted" role="status" data-testid="timeline-loaded">
        {status}
      </span>
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

function EventRow({ event: e, actors, highlighted, lazy }: { event: MissionEvent; actors: Record<string, string>; highlighted: boolean; lazy: boolean }) {
  const tone = toneOf(e);
  // In a paged log a row's details are rendered once opened (a closed row is a few nodes only).
  const [open, setOpen] = useState(highlighted);
  return (
    <li
      id={`event-${e.seq}`}
      className={`border-l-[3px] ${RULE[tone]} ${highlighted ? "tl-highlight bg-running-bg outline-2 outline-offset-[-2px] outline-focus" : ""}`}
      aria-current={highlighted ? "true" : undefined}
      data-testid="timeline-event"
      data-seq={e.seq}
      data-type={e.type}
    >
      <details open={highlighted} className="group" onToggle={lazy ? (ev) => setOpen(ev.currentTarget.open) : undefined}>
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
        {!lazy || open ? <EventDetails event={e} /> : null}
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
