import { domainFor } from "../lab/domains";
import type { MissionDefinition } from "../mission/definition";
import type { MissionState } from "../mission/types";

/** How many of each agent's newest steps the mission page's view of the state keeps. */
export const STATE_STEP_WINDOW = 50;

/**
 * The mission page's view of a mission's state (issue 19: a page whose first paint does not grow with the
 * mission). The state as reduced, except that each agent's succeeded steps before its newest `window` — and
 * before any step something still refers to (its first step that has not succeeded, a recovery's or the
 * library walk's step, an open gate's) — are left out of its `steps`, of its steps in the definition and of
 * `completedSteps`; AgentState.elided counts them. What the page shows of them stays true: they all
 * succeeded (so their evidence held), and stepCount / definedStepCount count them.
 *
 * The same reducer applies live events to the view (it reads steps through stepAt / stepCount); an event
 * that needs what was left out (a new attempt of such an agent, compensations) throws PartialStateError,
 * and the page reads the state again. A state is returned as it is when nothing would be left out, and for a
 * mission of a domain (lib/lab/domains: the grid world), whose renderer draws from the whole definition and
 * every completed step.
 */
export function stateView(s: MissionState, window = STATE_STEP_WINDOW): MissionState {
  if (domainFor(s.definition)) return s;
  const from = new Map<string, number>();
  for (const name of s.agentOrder) {
    const a = s.agents[name];
    if (a.elided) continue;
    const open = a.steps.findIndex((st) => st.status !== "succeeded");
    const referred = [a.recovery?.step, a.library?.step, ...s.gates.filter((g) => g.status === "open" && g.agent === name).map((g) => g.step)];
    const k = Math.min(a.steps.length - window, open === -1 ? Infinity : open, ...referred.filter((x): x is number => typeof x === "number"));
    if (k > 0) from.set(name, k);
  }
  if (from.size === 0) return s;
  const agents = { ...s.agents };
  const definedSteps = new Map(s.definition.phases.flatMap((p) => p.agents.map((a) => [a.name, a.steps.length] as const)));
  for (const [name, k] of from) agents[name] = { ...s.agents[name], steps: s.agents[name].steps.slice(k), elided: { steps: k, definedSteps: definedSteps.get(name) ?? 0 } };
  const definition: MissionDefinition = {
    ...s.definition,
    phases: s.definition.phases.map((p) => ({ ...p, agents: p.agents.map((a) => (from.has(a.name) ? { ...a, steps: a.steps.slice(from.get(a.name)) } : a)) })),
  };
  const completedSteps = s.completedSteps.filter((c) => !(from.has(c.agent) && c.attempt === s.agents[c.agent].attempt && c.step < from.get(c.agent)!));
  return { ...s, definition, agents, completedSteps };
}
