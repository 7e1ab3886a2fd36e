/** A change of one mission for the missions list, or null: anything may have changed. */
export type ListChange = { missionId: string | null; seq: number };

/**
 * Coalesces the missions list's change notices. Every commit NOTIFYs, but a list only needs to know that
 * it is stale: the first change after a quiet period goes out at once, the changes during the next
 * `windowMs` go out as one notice at its end (the mission and seq if they were all one mission's, else
 * `missionId: null`), and so on while changes keep coming. A list socket then gets at most one notice per
 * window whatever the commit rate, and never misses the last change.
 */
export function listChangeCoalescer(windowMs: number, emit: (change: ListChange) => void) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: ListChange | null = null;
  const flush = () => {
    timer = null;
    if (!pending) return;
    const change = pending;
    pending = null;
    emit(change);
    timer = setTimeout(flush, windowMs);
  };
  return {
    changed(change: ListChange): void {
      if (!timer) {
        emit(change);
        timer = setTimeout(flush, windowMs);
        return;
      }
      pending = pending === null || (pending.missionId !== null && pending.missionId === change.missionId) ? change : { missionId: null, seq: 0 };
    },
    close(): void {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
