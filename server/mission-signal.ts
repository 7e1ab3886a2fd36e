import { EventEmitter } from "node:events";

/**
 * A process-wide wake-up for requests that wait on a mission (the runs API's long poll and event stream):
 * the realtime relay's LISTEN signals each committed change; waiters re-read the database, which is the
 * truth. Kept on globalThis because Next.js route handlers and server/web.ts load separate copies of this
 * module in one process. Without a relay (no LISTEN in this process) waiters fall back to a slow poll.
 */
const KEY = Symbol.for("faultline.missionSignal");
type WithSignal = typeof globalThis & { [KEY]?: EventEmitter };

function emitter(): EventEmitter {
  const g = globalThis as WithSignal;
  if (!g[KEY]) {
    g[KEY] = new EventEmitter();
    g[KEY].setMaxListeners(0);
  }
  return g[KEY];
}

/** Called by the relay for every NOTIFY: mission `missionId` has new events up to `seq`. */
export function signalMission(missionId: string, seq: number): void {
  emitter().emit(missionId, seq);
}

/** Resolves when mission `missionId` changes, after `ms`, or when `signal` aborts: whichever comes first. */
export function missionChanged(missionId: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const e = emitter();
    const done = () => {
      clearTimeout(timer);
      e.off(missionId, done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    e.on(missionId, done);
    signal?.addEventListener("abort", done, { once: true });
  });
}
