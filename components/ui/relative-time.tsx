"use client";

import { useEffect, useState } from "react";
import { formatUtc } from "./format-utc";

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

const subscribers = new Set<(n: number) => void>();
let timer: ReturnType<typeof setInterval> | null = null;

/** The browser's clock, ticking every 15 s; null during server rendering and hydration. */
function useNow(): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    subscribers.add(setNow);
    timer ??= setInterval(() => {
      const t = Date.now();
      for (const s of subscribers) s(t);
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

/** "3 minutes ago", with the absolute local time in the title; UTC until the browser takes over. */
export function RelativeTime({ iso, empty = "—" }: { iso: string | null; empty?: string }) {
  const now = useNow();
  if (!iso) return <span className="text-muted">{empty}</span>;
  return (
    <time dateTime={iso} title={now === null ? formatUtc(iso) : formatAbsolute(iso)}>
      {now === null ? formatUtc(iso) : formatRelative(iso, now)}
    </time>
  );
}
