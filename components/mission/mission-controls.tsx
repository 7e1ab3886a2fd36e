"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState, useTransition } from "react";
import { abortMissionAction, pauseMissionAction, resumeMissionAction } from "@/app/(console)/missions/actions";
import type { MissionState } from "@/lib/mission/types";
import { queryKeys } from "../query-keys";
import * as ui from "@/components/ui/styles";

const PAUSE_KIND: Record<NonNullable<MissionState["paused"]>["kind"], string> = {
  operator: "Paused by an operator",
  infrastructure: "Paused: infrastructure failure",
  client: "Paused: the owning operator disconnected",
  agent: "Paused: the external agent went silent (its next call resumes the run)",
};

/**
 * Pause / resume (RFC 001 §3.4) and the banner saying why a mission is paused. A pause takes effect
 * at the next step boundary; the step in flight still records its result.
 */
export function MissionControls({ mission, canControl }: { mission: MissionState; canControl: boolean }) {
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [confirmAbort, setConfirmAbort] = useState(false);
  const [abortNote, setAbortNote] = useState("");
  const ended = mission.runState === "completed" || mission.runState === "failed";
  if (ended) return null;

  function act(kind: "pause" | "resume" | "abort") {
    setError(null);
    startTransition(async () => {
      const action = kind === "pause" ? pauseMissionAction : kind === "resume" ? resumeMissionAction : abortMissionAction;
      const r = await action({ missionId: mission.id, note: kind === "abort" ? abortNote.trim() || null : null });
      if (r.status === "error") setError(r.error.message);
      else if (kind === "abort") setConfirmAbort(false);
      await queryClient.invalidateQueries({ queryKey: queryKeys.missions.detail(mission.id) });
    });
  }

  return (
    <div className="grid gap-2">
      {mission.paused ? (
        <div className={mission.paused.kind === "infrastructure" ? ui.banner.error : ui.banner.warning} role="status" data-testid="pause-banner" data-kind={mission.paused.kind}>
          <span aria-hidden="true">‖ </span>
          <strong>{PAUSE_KIND[mission.paused.kind]}.</strong> {mission.paused.message} No new step starts until the mission is resumed.
        </div>
      ) : null}
      {mission.aborted ? (
        <div className={ui.banner.error} role="status" data-testid="abort-banner">
          <strong>Aborting.</strong> The mission ends FAILED once its compensations (if any) have run.
        </div>
      ) : null}
      {canControl && !mission.aborted ? (
        <div className="flex flex-wrap items-center gap-2">
          {mission.paused ? (
            <button type="button" className={ui.button("primary")} onClick={() => act("resume")} disabled={pending} data-testid="resume-mission">
              {pending ? "Resuming…" : "Resume mission"}
            </button>
          ) : (
            <button type="button" className={ui.button("secondary")} onClick={() => act("pause")} disabled={pending} data-testid="pause-mission" title="Stops at the next step boundary (a checkpoint)">
              {pending ? "Pausing…" : "Pause at next step"}
            </button>
          )}
          {confirmAbort ? null : (
            <button type="button" className={ui.button("danger")} onClick={() => setConfirmAbort(true)} disabled={pending} data-testid="abort-mission">
              Abort mission…
            </button>
          )}
        </div>
      ) : null}
      {canControl && confirmAbort && !mission.aborted ? (
        <form
          className={ui.cx(ui.card, "grid gap-2")}
          data-testid="abort-confirm"
          onSubmit={(e) => {
            e.preventDefault();
            act("abort");
          }}
        >
          <p>
            <strong>Abort “{mission.name}”?</strong> Open gates close as abort, compensations undo completed steps, and the mission ends FAILED. This cannot be undone.
          </p>
          <div className={ui.field}>
            <label htmlFor="abort-note">Reason (recorded in the event log and the audit log)</label>
            <textarea id="abort-note" rows={2} maxLength={2000} value={abortNote} onChange={(e) => setAbortNote(e.target.value)} />
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <button type="submit" className={ui.button("danger")} disabled={pending} data-testid="abort-confirm-button">
              {pending ? "Aborting…" : "Abort mission"}
            </button>
            <button type="button" className={ui.button("ghost")} onClick={() => setConfirmAbort(false)} disabled={pending}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {error ? (
        <p className={ui.result.error} role="alert">
          <span aria-hidden="true">✕ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}
