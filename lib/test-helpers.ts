/** Blocks this thread for `ms` without spinning, as a long synchronous render or a descheduled process would (tests only). */
export function stall(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
