"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { ToggleGroup } from "radix-ui";
import { useId, useState } from "react";
import type { Domain } from "@/lib/lab/domains";
import { isProjectionMode, MODE_CAPABILITIES, PROJECTION_MODES, type ProjectionMode } from "@/lib/lab/modes";
import type { MissionState } from "@/lib/mission/types";
import { renderMissionState } from "@/lib/views/state-render";
import { fetchProjection } from "../api-client";
import { queryKeys } from "../query-keys";
import * as ui from "../ui/styles";
import { parseBoardText } from "./board-text";

/**
 * Projection modes on the mission page (seed 002 FDR-N012): the same four modes as `faultline mission watch`,
 * shown as the capability table (lib/lab/modes.ts) says — silent shows no live projection, watch follows the
 * run with gates view only, interactive adds the decision controls (and the domain's board), debug adds the
 * state at a chosen seq with the model requests and responses of its write. The mode is in the address
 * (`?mode=`), debug's seq too (`&at=`); the page opens in interactive.
 */

export const DEFAULT_MODE: ProjectionMode = "interactive";

const LABEL: Record<ProjectionMode, string> = { silent: "Silent", watch: "Watch", interactive: "Interactive", debug: "Debug" };
const WHAT: Record<ProjectionMode, string> = {
  silent: "nothing while it runs; the final state when it ends",
  watch: "progress, proposals and model turns; gates view only",
  interactive: "watch, plus deciding gates, the domain's board and each model turn's details",
  debug: "interactive, plus the state at any seq and each model request and response",
};

/** The page's mode from the address; a mode the person may not use (debug without trace.export) or does not exist falls back to interactive, saying why. */
export function useProjectionMode(canDebug: boolean) {
  const sp = useSearchParams();
  const pathname = usePathname();
  const raw = sp.get("mode");
  const at = Number(sp.get("at"));
  let mode: ProjectionMode = DEFAULT_MODE;
  let notice: string | null = null;
  if (raw !== null && !isProjectionMode(raw)) notice = `The address asks for mode "${raw}", which is not a projection mode (${PROJECTION_MODES.join(", ")}): showing ${DEFAULT_MODE}.`;
  else if (raw === "debug" && !canDebug) notice = `Debug shows what the mission's trace holds (its state at each seq, model requests and responses), which needs trace.export (admins, operators and auditors): showing ${DEFAULT_MODE}.`;
  else if (raw !== null) mode = raw as ProjectionMode;
  const write = (params: URLSearchParams) => {
    const q = params.toString();
    // Next.js keeps useSearchParams in step with the native history API, without a server round trip.
    window.history.replaceState(null, "", `${pathname}${q ? `?${q}` : ""}${window.location.hash}`);
  };
  return {
    mode,
    capabilities: MODE_CAPABILITIES[mode],
    notice,
    at: Number.isInteger(at) && at > 0 ? at : null,
    setMode(next: ProjectionMode) {
      const params = new URLSearchParams(sp.toString());
      params.set("mode", next);
      if (next !== "debug") params.delete("at");
      write(params);
    },
    setAt(seq: number) {
      const params = new URLSearchParams(sp.toString());
      params.set("mode", "debug");
      params.set("at", String(seq));
      write(params);
    },
  };
}

/** The four modes as one toggle group (Radix: arrow keys move between them, Space or Enter picks one). */
export function ModeSwitch({ mode, onChange, canDebug }: { mode: ProjectionMode; onChange: (m: ProjectionMode) => void; canDebug: boolean }) {
  const hint = useId();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span id={`${hint}-label`} className="text-sm font-[550]">
        Mode
      </span>
      <ToggleGroup.Root
        type="single"
        value={mode}
        onValueChange={(v) => (isProjectionMode(v) ? onChange(v) : undefined)}
        aria-labelledby={`${hint}-label`}
        aria-describedby={hint}
        className={ui.segmented}
        data-testid="mode-switch"
      >
        {PROJECTION_MODES.map((m) => (
          <ToggleGroup.Item
            key={m}
            value={m}
            disabled={m === "debug" && !canDebug}
            title={m === "debug" && !canDebug ? "Debug needs trace.export (admins, operators, auditors)" : WHAT[m]}
            className={ui.cx(ui.segment(mode === m), mode !== m && "bg-transparent", "cursor-pointer focus-visible:relative focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-accent disabled:cursor-not-allowed disabled:text-muted")}
            data-testid={`mode-${m}`}
          >
            {LABEL[m]}
          </ToggleGroup.Item>
        ))}
      </ToggleGroup.Root>
      <span id={hint} className="text-muted text-sm" data-testid="mode-description">
        {LABEL[mode]}: {WHAT[mode]}.
      </span>
    </div>
  );
}

/**
 * A mission's snapshot as its domain's renderer draws it (lib/lab/domains, the text `faultline mission watch`
 * prints): a board of one-character cells becomes a table, with what each glyph means from the domain; any
 * other snapshot (the default renderer's) is shown as the text it is.
 */
export function SnapshotView({ state, domain, seq, testId = "snapshot" }: { state: MissionState; domain: Domain | null; seq: number; testId?: string }) {
  const text = (domain?.components.renderSnapshot ?? ((s: MissionState) => renderMissionState(s)))(state, { mode: "debug", capabilities: MODE_CAPABILITIES.debug, missionId: state.id, seq });
  const board = domain?.legend ? parseBoardText(text) : null;
  if (!board || !domain?.legend) {
    return (
      <pre className="m-0 max-h-96 overflow-auto rounded-md bg-surface-2 px-3 py-2 text-[13px]" data-testid={testId} tabIndex={0} role="region" aria-label={`Snapshot at seq ${seq}`}>
        {text}
      </pre>
    );
  }
  const legend = domain.legend;
  return (
    <figure className="m-0 grid gap-2" data-testid={testId} data-domain={domain.name}>
      <table className="w-fit border-collapse font-mono text-[13px]" aria-label={`${domain.name} board at seq ${seq}`}>
        <thead>
          <tr>
            <td />
            {board.columns.map((c) => (
              <th key={c} scope="col" className="h-7 w-7 text-center font-normal text-muted">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {board.rows.map((r) => (
            <tr key={r.label}>
              <th scope="row" className="h-7 w-7 pr-1 text-right font-normal text-muted">
                {r.label}
              </th>
              {r.cells.map((c, x) => (
                <td key={x} className={ui.cx("h-7 w-7 border border-border text-center", CELL[legend[c] ?? ""] ?? "bg-surface")} title={legend[c] ?? c} data-cell={`${board.columns[x]},${r.label}`} data-glyph={c}>
                  <span aria-hidden="true">{c}</span>
                  <span className="sr-only">{legend[c] ?? c}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption className="grid gap-1 text-sm">
        {board.caption.map((c) => (
          <span key={c} data-testid={`${testId}-caption`}>
            {c}
          </span>
        ))}
        <span className="flex flex-wrap gap-3 text-muted">
          {Object.entries(legend).map(([g, meaning]) => (
            <span key={g}>
              <code>{g}</code> {meaning}
            </span>
          ))}
        </span>
      </figcaption>
    </figure>
  );
}

const CELL: Record<string, string> = {
  agent: "bg-running-bg font-bold",
  obstacle: "bg-border-strong text-fg",
  goal: "bg-success-bg font-bold",
  visited: "bg-surface-2",
  "agent on an obstacle": "bg-failed-bg font-bold",
  free: "bg-surface",
};

/** The mission's model turns as the mode shows them (the table's LLM-calls column), drawn by the renderers on the server. */
export function ModelCalls({ missionId, mode, lastSeq, onShowSeq }: { missionId: string; mode: ProjectionMode; lastSeq: number; onShowSeq?: (seq: number) => void }) {
  const { data, error } = useQuery({ queryKey: queryKeys.missions.projection(missionId, mode, lastSeq), queryFn: () => fetchProjection(missionId, mode), placeholderData: keepPreviousData });
  if (error) return <p className={ui.result.error} role="alert">Could not load the model calls: {error.message}</p>;
  const lines = data?.modelCalls ?? [];
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="model-calls-title" className="grid gap-2" data-testid="model-calls">
      <h2 id="model-calls-title" className="text-[15px] font-[650]">
        Model calls <span className="text-muted">({lines.length})</span>
      </h2>
      <ol className={ui.cx(ui.card, "m-0 grid list-none gap-1 px-3 py-2")}>
        {lines.map((l, i) => (
          <li key={`${l.seq}:${i}`} className="flex flex-wrap items-baseline gap-2 text-[13px]" data-testid="model-call" data-seq={l.seq}>
            <span className="text-muted">#{l.seq}</span>
            <code className="min-w-0 flex-1 [overflow-wrap:anywhere] whitespace-pre-wrap">{l.text}</code>
            {onShowSeq ? (
              <button type="button" className={ui.button("secondary", "sm")} onClick={() => onShowSeq(l.seq)} data-testid="model-call-debug">
                State at #{l.seq}
              </button>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Debug: the state at a seq (reduced from the log on the server), what it changed, and its write's model requests and responses. */
export function DebugPanel({ missionId, lastSeq, at, onAt, domain }: { missionId: string; lastSeq: number; at: number | null; onAt: (seq: number) => void; domain: Domain | null }) {
  const seq = Math.min(at ?? lastSeq, lastSeq);
  const [draft, setDraft] = useState<string | null>(null);
  const inputId = useId();
  const { data, error, isFetching } = useQuery({ queryKey: queryKeys.missions.debugAt(missionId, seq), queryFn: () => fetchProjection(missionId, "debug", seq), enabled: seq >= 1, placeholderData: keepPreviousData, staleTime: Infinity });
  const d = data?.debug ?? null;
  const go = (n: number) => {
    setDraft(null);
    onAt(Math.max(1, Math.min(lastSeq, n)));
  };
  const typed = draft ?? String(seq);
  const typedN = Number(typed);
  const typedProblem = typed.trim() === "" || !Number.isInteger(typedN) || typedN < 1 || typedN > lastSeq ? `Enter a whole number from 1 to ${lastSeq}.` : null;
  return (
    <section aria-labelledby="debug-title" className={ui.cx(ui.panel)} data-testid="debug-panel">
      <h2 id="debug-title" className="text-[15px] font-[650]">
        State at seq {seq}
      </h2>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (!typedProblem) go(typedN);
        }}
      >
        <div className={ui.field}>
          <label htmlFor={inputId}>Seq (1–{lastSeq})</label>
          <input id={inputId} type="number" min={1} max={lastSeq} value={typed} onChange={(e) => setDraft(e.target.value)} className="w-28" aria-invalid={typedProblem ? true : undefined} aria-describedby={typedProblem ? `${inputId}-err` : undefined} data-testid="debug-seq" />
        </div>
        <button type="submit" className={ui.button("primary", "sm")} disabled={!!typedProblem}>
          Show
        </button>
        <button type="button" className={ui.button("secondary", "sm")} onClick={() => go(seq - 1)} disabled={seq <= 1}>
          Previous
        </button>
        <button type="button" className={ui.button("secondary", "sm")} onClick={() => go(seq + 1)} disabled={seq >= lastSeq}>
          Next
        </button>
        {isFetching ? <span className="text-muted text-sm">Reading…</span> : null}
      </form>
      {typedProblem && draft !== null ? (
        <p id={`${inputId}-err`} className={ui.fieldError}>
          {typedProblem}
        </p>
      ) : null}
      {error ? (
        <p className={ui.result.error} role="alert">
          Could not read the state at seq {seq}: {error.message}
        </p>
      ) : null}
      {d ? (
        <div className="grid gap-3" data-testid="debug-at" data-seq={d.seq}>
          <p className="m-0">
            <code>#{d.event.seq}</code> <strong>{d.event.type}</strong> — {d.event.reason}
          </p>
          <p className="m-0 text-sm text-muted" data-testid="debug-write">
            {d.write
              ? `Written by the worker with seq ${d.write.seq}${d.write.count > 1 ? `–${d.write.seq + d.write.count - 1}` : ""}, from the state at seq ${d.write.fromSeq}; readings: ${[...(d.modelCalls.length ? [`model turn ×${d.modelCalls.length}`] : []), ...(d.reflections.length ? [`reflection ×${d.reflections.length}`] : []), ...Object.entries(d.otherReads).map(([k, n]) => `${k} ×${n}`)].join(", ") || "none"}.`
              : "No engine readings are recorded for this event (written by a person, the web or the seed, not the worker's engine)."}
          </p>
          <div className="grid gap-1">
            <h3 className="text-sm font-[650]">What this event changed</h3>
            {d.changes.length ? (
              <ul className="m-0 grid gap-0.5 pl-5 text-[13px]" data-testid="debug-changes">
                {d.changes.map((c) => (
                  <li key={c} className="[overflow-wrap:anywhere]">
                    <code>{c}</code>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="m-0 text-sm text-muted">Nothing in the state.</p>
            )}
          </div>
          <div className="grid gap-1">
            <h3 className="text-sm font-[650]">{domain ? `Board at seq ${d.seq}` : `Snapshot at seq ${d.seq}`}</h3>
            <SnapshotView state={d.state} domain={domain} seq={d.seq} testId="debug-snapshot" />
          </div>
          {d.modelCalls.map((c, i) => (
            <div key={i} className="grid gap-1" data-testid="debug-model-call">
              <h3 className="text-sm font-[650]">Model turn of “{c.agent}”</h3>
              <details open>
                <summary className="w-fit cursor-pointer text-sm text-link">Request (derived from the state at seq {d.write?.fromSeq}, as the worker sends it)</summary>
                <pre className="m-0 mt-1 max-h-96 overflow-auto rounded-md bg-surface-2 px-3 py-2 text-[12.5px] whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="debug-request" tabIndex={0} role="region" aria-label={`Request of ${c.agent}'s model turn`}>
                  {c.request ? JSON.stringify(c.request, null, 2) : "The log does not hold the state this turn started from, so its request cannot be shown."}
                </pre>
              </details>
              <details open>
                <summary className="w-fit cursor-pointer text-sm text-link">Response (as recorded)</summary>
                <pre className="m-0 mt-1 max-h-96 overflow-auto rounded-md bg-surface-2 px-3 py-2 text-[12.5px] whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="debug-response" tabIndex={0} role="region" aria-label={`Response to ${c.agent}'s model turn`}>
                  {JSON.stringify(c.response, null, 2)}
                </pre>
              </details>
            </div>
          ))}
          {d.reflections.map((r, i) => (
            <div key={`r${i}`} className="grid gap-1" data-testid="debug-reflection">
              <h3 className="text-sm font-[650]">LLM reflection (response as recorded; its request is not recorded)</h3>
              <pre className="m-0 max-h-72 overflow-auto rounded-md bg-surface-2 px-3 py-2 text-[12.5px] whitespace-pre-wrap" tabIndex={0} role="region" aria-label="LLM reflection">{JSON.stringify(r, null, 2)}</pre>
            </div>
          ))}
          <details>
            <summary className="w-fit cursor-pointer text-sm text-link">The whole state at seq {d.seq}</summary>
            <pre className="m-0 mt-1 max-h-[32rem] overflow-auto rounded-md bg-surface-2 px-3 py-2 text-[12.5px]" data-testid="debug-state" tabIndex={0} role="region" aria-label={`The whole state at seq ${d.seq}`}>
              {JSON.stringify(d.state, null, 2)}
            </pre>
          </details>
        </div>
      ) : null}
    </section>
  );
}
