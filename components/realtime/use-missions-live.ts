"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { queryKeys } from "../query-keys";
import { getSocket } from "./socket";

/**
 * Joins the "missions" room and turns every `missions:changed` into an invalidation of the lists
 * (missions table, gates inbox, sidebar badge), batched so a burst of events costs one refetch.
 */
export function useMissionsLive(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = getSocket();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const invalidate = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: queryKeys.missions.list() });
        void queryClient.invalidateQueries({ queryKey: queryKeys.gates.all });
      }, 150);
    };
    const subscribe = () => {
      socket.emit("subscribe:missions");
      invalidate(); // anything may have changed while we were away
    };
    socket.on("missions:changed", invalidate);
    socket.on("connect", subscribe);
    if (socket.connected) socket.emit("subscribe:missions");
    return () => {
      if (timer) clearTimeout(timer);
      socket.off("missions:changed", invalidate);
      socket.off("connect", subscribe);
    };
  }, [queryClient]);
}
