"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { MissionEvent } from "@/lib/mission/events";
import { applyEventsToDetail, type MissionDetail } from "@/lib/views/mission-detail";
import { queryKeys } from "../query-keys";
import { getSocket } from "./socket";

/**
 * Keeps a mission's react-query data live: subscribes with the last seq it holds (on mount and on every
 * reconnect), folds incoming events in with the shared reducer, ignores seq <= lastSeq, and re-subscribes
 * from its lastSeq when it sees a gap. Calls onEvents with the events it applied (for announcements).
 */
export function useMissionEvents(missionId: string, onEvents?: (events: MissionEvent[]) => void): void {
  const queryClient = useQueryClient();
  const onEventsRef = useRef(onEvents);
  useEffect(() => {
    onEventsRef.current = onEvents;
  });

  useEffect(() => {
    const socket = getSocket();
    const key = queryKeys.missions.detail(missionId);
    const lastSeq = () => queryClient.getQueryData<MissionDetail>(key)?.mission.seq ?? 0;
    let resyncFrom: number | null = null;

    const subscribe = () => {
      resyncFrom = lastSeq();
      socket.emit("subscribe:mission", { missionId, lastSeq: resyncFrom });
    };

    const onMissionEvents = (msg: { missionId: string; events: MissionEvent[] }) => {
      if (msg.missionId !== missionId) return;
      const current = queryClient.getQueryData<MissionDetail>(key);
      if (!current) {
        void queryClient.invalidateQueries({ queryKey: key });
        return;
      }
      const result = applyEventsToDetail(current, msg.events);
      if (result.kind === "refetch") {
        console.warn(`[live] mission ${missionId}: local state disagrees with the log (${result.reason}); reloading it`);
        void queryClient.invalidateQueries({ queryKey: key });
        return;
      }
      if (result.kind === "applied") {
        queryClient.setQueryData(key, result.detail);
        const fresh = result.detail.events.slice(current.events.length);
        onEventsRef.current?.(fresh);
        // A new actor (someone who just decided a gate): fetch the names once.
        if (fresh.some((e) => !(e.actorId in result.detail.actors))) void queryClient.invalidateQueries({ queryKey: key });
      }
      // A hole before these events: ask again from what we hold (once per position), the catch-up fills it.
      if (result.gap && resyncFrom !== lastSeq()) subscribe();
    };

    socket.on("mission:events", onMissionEvents);
    socket.on("connect", subscribe);
    if (socket.connected) subscribe();
    return () => {
      socket.off("mission:events", onMissionEvents);
      socket.off("connect", subscribe);
      if (socket.connected) socket.emit("unsubscribe:mission", { missionId });
    };
  }, [missionId, queryClient]);
}
