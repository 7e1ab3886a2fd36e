"use client";

import { useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../query-keys";
import { useMissionsChanged } from "./use-missions-changed";

/** Turns every change of the missions into a refetch of the lists (missions table, gates inbox, sidebar badge). */
export function useMissionsLive(): void {
  const queryClient = useQueryClient();
  useMissionsChanged(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.missions.list() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.gates.all });
  }, 150);
}
