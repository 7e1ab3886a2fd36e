"use client";

import { useRouter } from "next/navigation";
import { useMissionsChanged } from "./use-missions-changed";

/** Keeps a server-rendered page current: re-renders it on the server whenever missions change (useMissionsChanged). */
export function LiveRefresh({ delayMs = 300 }: { delayMs?: number }) {
  const router = useRouter();
  useMissionsChanged(() => router.refresh(), delayMs);
  return null;
}
