"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { GateView } from "@/lib/views/gate-view";
import { fetchOpenGates } from "../api-client";
import { queryKeys } from "../query-keys";
import { GatePanel, type GateDecided } from "./gate-panel";
import type { Decider } from "@/lib/mission/gate-policy";
import * as ui from "@/components/ui/styles";

/** Every open gate, oldest first, live. */
export function GatesInbox({ initialGates, canDecide, viewer = null }: { initialGates: GateView[]; canDecide: boolean; viewer?: Decider | null }) {
  const { data: gates = initialGates, error } = useQuery({ queryKey: queryKeys.gates.open(), queryFn: fetchOpenGates, initialData: initialGates });
  const [decided, setDecided] = useState<GateDecided[]>([]);

  return (
    <div className="grid gap-4">
      <div role="status" aria-live="polite" className="grid gap-2">
        {decided.map((d) => (
          <p key={d.gateId} className={ui.result.ok} data-testid="inbox-decided">
            <span aria-hidden="true">✓ </span>
            You chose <strong>{d.decision}</strong>
            {d.modified ? " with modified args" : ""} for “{d.agent}” in{" "}
            <Link className="text-link underline underline-offset-2" href={`/missions/${d.missionId}`}>
              {d.missionName}
            </Link>
            .
          </p>
        ))}
      </div>
      {error ? (
        <p className={ui.result.error} role="alert">
          Could not refresh the gates: {error.message}
        </p>
      ) : null}
      {gates.length === 0 ? (
        <div className={ui.empty} data-testid="gates-empty">
          <p>
            <strong>No open gates.</strong> When a critical or important agent fails, its gate appears here for an operator to retry, skip or abort.
          </p>
        </div>
      ) : (
        gates.map((g) => <GatePanel key={g.id} gate={g} canDecide={canDecide} viewer={viewer} showMission headingLevel={2} onDecided={(d) => setDecided((prev) => [d, ...prev].slice(0, 5))} />)
      )}
    </div>
  );
}
