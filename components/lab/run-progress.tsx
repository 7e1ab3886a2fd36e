"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { fetchLabRuns } from "../api-client";
import { queryKeys } from "../query-keys";
import { LabStatusBadge } from "./runs-table";

/**
 * A suite run still recording: its progress, asked for every 2 s; when it ends the page reloads its
 * report from the server.
 */
export function LabRunProgress({ id, done, total }: { id: string; done: number; total: number }) {
  const router = useRouter();
  const { data } = useQuery({ queryKey: queryKeys.lab.runs(), queryFn: fetchLabRuns, refetchInterval: 2000 });
  const run = data?.find((r) => r.id === id) ?? { status: "running" as const, done, total };
  useEffect(() => {
    if (run.status !== "running") router.refresh();
  }, [run.status, router]);
  return (
    <p className="m-0" role="status" data-testid="lab-run-progress">
      <LabStatusBadge run={run} /> {run.done} of {run.total} runs recorded; the report and charts appear when the suite run ends.
    </p>
  );
}
