"use client";

import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@/lib/realtime/protocol";

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ConnectionStatus = "connecting" | "connected" | "reconnecting" | "unauthorized";

export interface ConnectionState {
  status: ConnectionStatus;
  /** Why the last connection attempt failed, in words; null when connected. */
  message: string | null;
}

let socket: RealtimeSocket | null = null;
let state: ConnectionState = { status: "connecting", message: null };
const listeners = new Set<() => void>();

function setState(next: ConnectionState) {
  if (next.status === state.status && next.message === state.message) return;
  state = next;
  for (const l of listeners) l();
}

/** The one socket of this browser tab, created on first use. */
export function getSocket(): RealtimeSocket {
  if (socket) return socket;
  const s: RealtimeSocket = io({
    path: "/socket.io",
    withCredentials: true,
    // WebSocket first: no long-polling session id to go stale when the web process restarts.
    transports: ["websocket", "polling"],
    reconnectionDelay: 500,
    reconnectionDelayMax: 10_000,
  });
  s.on("connect", () => setState({ status: "connected", message: null }));
  s.on("disconnect", (reason) => {
    setState({ status: "reconnecting", message: `Disconnected (${reason}); reconnecting…` });
    // The server ended the connection on purpose: socket.io does not retry by itself then.
    if (reason === "io server disconnect") s.connect();
  });
  s.on("connect_error", (err) => {
    // A refused handshake: the session is gone. Socket.io stops retrying; say so.
    if (!s.active) setState({ status: "unauthorized", message: err.message });
    else setState({ status: "reconnecting", message: `Live updates unavailable (${err.message}); retrying…` });
  });
  socket = s;
  return s;
}

export function getConnectionState(): ConnectionState {
  return state;
}

export function subscribeConnectionState(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

const serverState: ConnectionState = { status: "connecting", message: null };
export function getServerConnectionState(): ConnectionState {
  return serverState;
}
