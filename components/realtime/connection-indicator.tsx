"use client";

import { useSyncExternalStore } from "react";
import { getConnectionState, getServerConnectionState, subscribeConnectionState } from "./socket";

const LABEL = { connecting: "Connecting…", connected: "Live", reconnecting: "Reconnecting…", unauthorized: "Signed out" } as const;

/** Shows whether live updates flow: connected, reconnecting, or the session ended. */
export function ConnectionIndicator() {
  const state = useSyncExternalStore(subscribeConnectionState, getConnectionState, getServerConnectionState);
  return (
    <div className={`conn conn-${state.status}`} role="status" aria-live="polite" data-testid="connection-status" data-status={state.status} title={state.message ?? "Live updates are flowing"}>
      <span className="conn-dot" aria-hidden="true" />
      <span>{LABEL[state.status]}</span>
      {state.status === "unauthorized" ? (
        <a className="conn-link" href="/login">
          Sign in again
        </a>
      ) : null}
    </div>
  );
}
