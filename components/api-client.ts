import type { GateView } from "@/lib/views/gate-view";
import type { MissionDetail } from "@/lib/views/mission-detail";
import type { MissionEvent } from "@/lib/mission/events";
import type { MissionListItem } from "@/server/read-models";
import type { DiagnosisFeedbackView } from "@/db/queries/diagnosis-feedback";
import type { LabSuiteRunDetail, LabSuiteRunSummary } from "@/db/queries/lab";
import type { DebugAtSeq } from "@/lib/lab/debug";
import type { ModeCapabilities, ProjectionMode } from "@/lib/lab/modes";
import type { ReasoningLine } from "@/lib/lab/projection";

/** Error thrown by the client fetchers, carrying the server's message in words. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function getJson<T>(url: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
  } catch {
    throw new ApiError("Could not reach the Faultline server. Check that it is running and your network is up; the page retries automatically.", 0, "network");
  }
  const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  if (!res.ok) throw new ApiError(body?.error?.message ?? `The server answered ${res.status} ${res.statusText}.`, res.status, body?.error?.code ?? "http");
  return body as T;
}

export const fetchMissions = () => getJson<{ missions: MissionListItem[] }>("/api/v1/missions").then((b) => b.missions);
export const fetchMission = (id: string, window?: number) => getJson<MissionDetail>(`/api/v1/missions/${encodeURIComponent(id)}${window ? `?window=${window}` : ""}`);

/** One page of a mission's events (keyset by seq): GET /api/v1/missions/:id/events. */
export interface EventPageView {
  events: MissionEvent[];
  hasOlder: boolean;
  hasNewer: boolean;
  lastSeq: number;
  actors: Record<string, string>;
}
export function fetchEventPage(id: string, q: { before?: number; after?: number; around?: number; limit: number; type?: string; agent?: string }): Promise<EventPageView> {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== "") sp.set(k, String(v));
  return getJson<EventPageView>(`/api/v1/missions/${encodeURIComponent(id)}/events?${sp}`);
}
export const fetchOpenGates = () => getJson<{ gates: GateView[] }>("/api/v1/gates").then((b) => b.gates);
export const fetchLabRuns = () => getJson<{ runs: LabSuiteRunSummary[] }>("/api/v1/lab/runs").then((b) => b.runs);
export const fetchLabRun = (id: string) => getJson<{ run: LabSuiteRunDetail }>(`/api/v1/lab/runs/${encodeURIComponent(id)}`).then((b) => b.run);
export const fetchDiagnosisFeedback = (id: string) => getJson<{ feedback: DiagnosisFeedbackView | null }>(`/api/v1/diagnoses/${encodeURIComponent(id)}/feedback`).then((b) => b.feedback);

/** What a projection mode adds to the mission page: GET /api/v1/missions/:id/projection (debug: the state at `seq`). */
export interface ProjectionView {
  mode: ProjectionMode;
  capabilities: ModeCapabilities;
  modelCalls: ReasoningLine[];
  debug: DebugAtSeq | null;
}
export function fetchProjection(id: string, mode: ProjectionMode, seq?: number): Promise<ProjectionView> {
  return getJson<ProjectionView>(`/api/v1/missions/${encodeURIComponent(id)}/projection?mode=${mode}${seq !== undefined ? `&seq=${seq}` : ""}`);
}
