"use client";

import { useEffect, useRef } from "react";
import { getSocket } from "./socket";

/**
 * Joins the "missions" room and calls `onChange` after every `missions:changed` (a mission appended
 * events: a gate opened, a failure was recorded, a decision was taken), batched so a burst of events
 * costs one call `delayMs` later. Also calls it after a reconnect, since anything may have changed.
 */
export function useMissionsChanged(onChange: () => void, delayMs: number): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    const socket = getSocket();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const changed = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        latest.current();
      }, delayMs);
    };
    const subscribe = () => {
      socket.emit("subscribe:missions");
      changed(); // anything may have changed while we were away
    };
    socket.on("missions:changed", changed);
    socket.on("connect", subscribe);
    if (socket.connected) socket.emit("subscribe:missions");
    return () => {
      if (timer) clearTimeout(timer);
      socket.off("missions:changed", changed);
      socket.off("connect", subscribe);
    };
  }, [delayMs]);
}
