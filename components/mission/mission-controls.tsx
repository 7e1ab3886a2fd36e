"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState, useTransition } from "react";
import { pauseMissionAction, resumeMissionAction } from "@/app/(console)/missions/actions";
import type { MissionState } from "@/lib/mission/types";
import { queryKeys } from "../query-keys";

const PAUSE_KIND: Record<NonNullable<MissionState["paused"]>["kind"], string> = {
  operator: "Paused by an operator",
  infrastructure: "Paused: infrastructure failure",
  client: "Paused: the owning operator disconnected",
};

/**
 * Pause / resume (RFC 001 §3.4) and the banner saying why a mission is paused. A pause takes effect
 * at the next step boundary; the step in flight still records its result.
 */
export function MissionControls({ mission, canControl }: { mission: MissionState; canControl: boolean }) {
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const ended = mission.runState === "completed" || mission.runState === "failed";
  if (ended) return null;

  function act(kind: "pause" | "resume") {
    setError(null);
    startTransition(async () => {
      const r = await (kind === "pause" ? pauseMissionAction : resumeMissionAction)({ missionId: mission.id });
      if (r.status === "error") setError(r.error.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.missions.detail(mission.id) });
    });
  }

  return (
    <div className="stack-tight">
      {mission.paused ? (
        <div className={`banner banner-${mission.paused.kind === "infrastructure" ? "error" : "warning"}`} role="status" data-testid="pause-banner" data-kind={mission.paused.kind}>
          <span aria-hidden="true">‖ </span>
          <strong>{PAUSE_KIND[mission.paused.kind]}.</strong> {mission.paused.message} No new step starts until the mission is resumed.
        </div>
      ) : null}
      {canControl ? (
        <div className="row">
          {mission.paused ? (
            <button type="button" className="btn btn-primary" onClick={() => act("resume")} disabled={pending} data-testid="resume-mission">
              {pending ? "Resuming…" : "Resume mission"}
            </button>
          ) : (
            <button type="button" className="btn btn-secondary" onClick={() => act("pause")} disabled={pending} data-testid="pause-mission" title="Stops at the next step boundary (a checkpoint)">
              {pending ? "Pausing…" : "Pause at next step"}
            </button>
          )}
        </div>
      ) : null}
      {error ? (
        <p className="result result-error" role="alert">
          <span aria-hidden="true">✕ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}
