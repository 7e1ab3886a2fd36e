import Link from "next/link";
import type { Counterfactual, DecisionRecord } from "@/lib/authority/types";

/** Words for proposals and decisions shared by the mission page, the inbox and the actor pages (server or client). */

/** Who decided: a person's or reviewer agent's name, the authority with the rule (or check) that decided, or nobody yet. */
export function deciderLabel(d: DecisionRecord | null, nameOf: (actorId: string) => string | null | undefined): string {
  if (!d || d.decision === "pending") return "— (waits for a decision)";
  if (d.decidedBy === "system:authority") return `authority (${d.authority})`;
  return nameOf(d.decidedBy) ?? d.decidedBy;
}

/** An actor's name linking to its page (ids hold ':' '@' '/': encoded). */
export function ActorLink({ id, name, title }: { id: string; name?: string | null; title?: string }) {
  return (
    <Link className="text-link underline underline-offset-2" href={`/actors/${encodeURIComponent(id)}`} title={title}>
      {name ?? id}
    </Link>
  );
}

/** Who decided, linked to their actor page when a person or reviewer agent did. */
export function Decider({ decision, nameOf }: { decision: DecisionRecord | null; nameOf: (actorId: string) => string | null | undefined }) {
  if (!decision || decision.decision === "pending" || decision.decidedBy === "system:authority") return <>{deciderLabel(decision, nameOf)}</>;
  return <ActorLink id={decision.decidedBy} name={nameOf(decision.decidedBy)} />;
}

/** A counterfactual change in words. */
export function describeChange(c: Counterfactual["change"]): string {
  switch (c.type) {
    case "relax_constraint":
      return `relax ${c.constraint}`;
    case "add_observation":
      return `observe ${typeof c.observation === "string" ? c.observation : JSON.stringify(c.observation)}`;
    case "increase_confidence":
      return `confidence ${c.to}`;
    case "resolve_ambiguity":
      return `resolve ${typeof c.resolution === "string" ? c.resolution : JSON.stringify(c.resolution)}`;
    case "obtain_confirmation":
      return `confirmation from ${c.from}`;
  }
}
