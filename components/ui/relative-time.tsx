"use client";

import { useEffect, useState } from "react";

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

export function formatRelative(iso: string, now: number): string {
  const diff = (Date.parse(iso) - now) / 1000;
  const abs = Math.abs(diff);
  if (abs < 10) return "just now";
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, secs] of UNITS) if (abs >= secs || unit === "second") return rtf.format(Math.round(diff / secs), unit);
  return "";
}

export function formatAbsolute(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", { year: "numeric", month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short" });
}

let tick = Date.now();
const subscribers = new Set<(n: number) => void>();
let timer: ReturnType<typeof setInterval> | null = null;
function useNow(): number {
  const [now, setNow] = useState(tick);
  useEffect(() => {
    subscribers.add(setNow);
    timer ??= setInterval(() => {
      tick = Date.now();
      for (const s of subscribers) s(tick);
    }, 15_000);
    setNow(Date.now());
    return () => {
      subscribers.delete(setNow);
      if (subscribers.size === 0 && timer) {
        clearInterval(timer);
        timer = null;
      }
    };
  }, []);
  return now;
}

/** "3 minutes ago", with the absolute time in the title. Server and browser may disagree: the browser wins. */
export function RelativeTime({ iso, empty = "—" }: { iso: string | null; empty?: string }) {
  const now = useNow();
  if (!iso) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={iso} title={formatAbsolute(iso)} suppressHydrationWarning>
      {formatRelative(iso, now)}
    </time>
  );
}
