"use client";

import { useSyncExternalStore } from "react";
import { getConnectionState, getServerConnectionState, subscribeConnectionState } from "./socket";

/** The dot's colour per state; connecting and reconnecting pulse (not with reduced motion). */
const DOT = {
  connecting: "bg-paused animate-pulse motion-reduce:animate-none",
  connected: "bg-success",
  reconnecting: "bg-paused animate-pulse motion-reduce:animate-none",
  unauthorized: "bg-failed",
} as const;

const LABEL = { connecting: "Connecting…", connected: "Live", reconnecting: "Reconnecting…", unauthorized: "Signed out" } as const;

/** Shows whether live updates flow: connected, reconnecting, or the session ended. */
export function ConnectionIndicator() {
  const state = useSyncExternalStore(subscribeConnectionState, getConnectionState, getServerConnectionState);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm text-muted" role="status" aria-live="polite" data-testid="connection-status" data-status={state.status} title={state.message ?? "Live updates are flowing"}>
      <span className={`size-2 rounded-full ${DOT[state.status] ?? "bg-queued"}`} aria-hidden="true" />
      <span>{LABEL[state.status]}</span>
      {state.status === "unauthorized" ? (
        <a className="text-link" href="/login">
          Sign in again
        </a>
      ) : null}
    </div>
  );
}
