import type { MissionState } from "@/lib/mission/types";

const STATUS: Record<string, { icon: string; tone: string }> = {
  pending: { icon: "○", tone: "queued" },
  running: { icon: "▶", tone: "running" },
  completed: { icon: "✓", tone: "success" },
  failed: { icon: "✕", tone: "failed" },
  skipped: { icon: "↷", tone: "partial" },
};

export function AgentsTable({ mission }: { mission: MissionState }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="agents-table">
        <caption className="sr-only">Agents in execution order</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Phase</th>
            <th scope="col">Priority</th>
            <th scope="col">Status</th>
            <th scope="col" className="text-right tabular-nums">
              Attempt
            </th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {mission.agentOrder.map((name) => {
            const a = mission.agents[name];
            const st = STATUS[a.status] ?? { icon: "?", tone: "neutral" };
            const lastStepError = [...a.steps].reverse().find((s) => s.error)?.error;
            return (
              <tr key={name} data-testid={`agent-row-${name}`}>
                <th scope="row">{name}</th>
                <td className="phase-cell">{a.phase.replaceAll("_", " ").toLowerCase()}</td>
                <td>
                  <span className={`prio prio-${a.priority}`}>{a.priority}</span>
                </td>
                <td>
                  <span className={`badge tone-${st.tone}`}>
                    <span className="text-[11px]" aria-hidden="true">
                      {st.icon}
                    </span>
                    {a.status}
                    {a.tolerated ? " (tolerated)" : ""}
                  </span>
                </td>
                <td className="text-right tabular-nums">{a.attempt}</td>
                <td className="err-cell">
                  {a.error ? (
                    <>
                      <code className="err-code">{a.error.context.toolError.code}</code> {a.error.message}
                    </>
                  ) : lastStepError ? (
                    <>
                      <code className="err-code">{lastStepError.code}</code> {lastStepError.message}
                    </>
                  ) : (
                    <span className="text-muted">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
