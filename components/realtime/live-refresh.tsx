"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { getSocket } from "./socket";

/**
 * Keeps a server-rendered page current: every `missions:changed` (a mission appended events: a gate
 * opened, a failure was recorded, a decision was taken) re-renders the page on the server, batched so a
 * burst of events costs one refresh. Also refreshes after a reconnect, since anything may have changed.
 */
export function LiveRefresh({ delayMs = 300 }: { delayMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const socket = getSocket();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        router.refresh();
      }, delayMs);
    };
    const subscribe = () => {
      socket.emit("subscribe:missions");
      refresh();
    };
    socket.on("missions:changed", refresh);
    socket.on("connect", subscribe);
    if (socket.connected) socket.emit("subscribe:missions");
    return () => {
      if (timer) clearTimeout(timer);
      socket.off("missions:changed", refresh);
      socket.off("connect", subscribe);
    };
  }, [router, delayMs]);
  return null;
}
