/**
 * Time limits that measure the other side, not this process. A time limit is meant to say "they did not answer"; a busy process
 * (a long synchronous render, a loaded machine, a descheduled container) would otherwise blame the other side for its own stall:
 * - the timer fires in the event loop's timers phase, before answers that arrived meanwhile are read (poll phase): expiry waits
 *   for setImmediate, which runs after the poll phase, so an answer already there wins;
 * - the stall can come before the request is even written: a timer that fires late (the thread was blocked, not waiting) starts
 *   the budget again from now, at most STALL_REARMS times, so the other side gets `ms` of this process's attention.
 */

/** A timer at least this late (or half its limit, if more) fired after the thread was blocked. */
export const STALL_MS = 250;
export const STALL_REARMS = 3;

/** Calls `onExpire` once `ms` of this process's attention has passed; returns a function that cancels it. */
export function deadline(ms: number, onExpire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let rearms = 0;
  const arm = () => {
    const due = performance.now() + ms;
    timer = setTimeout(() => {
      if (performance.now() - due > Math.max(STALL_MS, ms / 2) && rearms++ < STALL_REARMS) return arm();
      immediate = setImmediate(onExpire);
    }, ms);
  };
  arm();
  return () => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  };
}

/** Raised by withTimeout: `what` did not answer in time. */
export class TimeLimitExceeded extends Error {
  override name = "TimeLimitExceeded";
}

/** `work`, or a TimeLimitExceeded ("<what> did not answer within <ms> ms") after `ms` of this process being able to listen. */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let cancel = () => {};
  const timeout = new Promise<never>((_, reject) => {
    cancel = deadline(ms, () => reject(new TimeLimitExceeded(`${what} did not answer within ${ms} ms`)));
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    cancel();
  }
}
