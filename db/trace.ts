import fs from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";

/**
 * A wall-clock trace of what a process asks of PostgreSQL, for profiling (bench/recovery.ts reads it):
 * set FAULTLINE_QUERY_TRACE to a file and every query sent, every new connection, every NOTIFY received
 * and every GC pause is appended as `PROF <what> <epoch ms> <duration ms> <detail>`. Lines are buffered
 * and written twice a second: a synchronous write per query would itself delay what is measured.
 * Unset (the default), nothing is traced and nothing costs.
 */
export interface QueryTrace {
  query(connectionId: number, text: string): void;
  notify(payload: string): void;
}

let trace: QueryTrace | null | undefined;

export function queryTrace(): QueryTrace | null {
  if (trace !== undefined) return trace;
  const file = process.env.FAULTLINE_QUERY_TRACE;
  if (!file) return (trace = null);
  const now = () => performance.timeOrigin + performance.now();
  let buffered: string[] = [];
  const emit = (what: string, at: number, ms: number, detail: string) => buffered.push(`PROF ${what} ${at.toFixed(3)} ${ms.toFixed(3)} ${detail.replace(/\s+/g, " ")}`);
  setInterval(() => {
    if (buffered.length) fs.appendFileSync(file, buffered.join("\n") + "\n");
    buffered = [];
  }, 500).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) emit("gc", performance.timeOrigin + e.startTime, e.duration, String((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? ""));
  }).observe({ entryTypes: ["gc"] });
  const seen = new Set<number>();
  return (trace = {
    query(connectionId, text) {
      const at = now();
      if (!seen.has(connectionId)) {
        seen.add(connectionId);
        emit("connect", at, 0, String(connectionId));
      }
      emit("query", at, 0, text.slice(0, 300));
    },
    notify(payload) {
      emit("notify", now(), 0, payload);
    },
  });
}
