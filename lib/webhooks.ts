import { z } from "zod";

/**
 * Webhooks (issue 15): the events a subscription can ask for, what each carries, and the retry
 * schedule. Pure; the dispatcher (server/webhooks.ts) queues, signs and sends.
 */
export const WEBHOOK_EVENTS = ["gate.opened", "gate.resolved", "proposal.pending", "proposal.decided", "mission.paused", "mission.resumed", "mission.finished", "tool.failed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEvent, string> = {
  "gate.opened": "A mission waits at a gate for a person (its HITL prompt included)",
  "gate.resolved": "A gate was decided (by whom, which option)",
  "proposal.pending": "The authority holds an agent's proposal for a person",
  "proposal.decided": "A proposal was approved or rejected (the decision record)",
  "mission.paused": "A mission paused (operator, infrastructure or client)",
  "mission.resumed": "A paused mission resumed",
  "mission.finished": "A mission ended: SUCCESS, PARTIAL_SUCCESS or FAILED, derived from evidence",
  "tool.failed": "A tool call failed (the strict ToolResult error)",
};

/** The webhook events one entry of the event log is (most are none). */
export function webhookEventsOf(e: { type: string; payload: unknown }): WebhookEvent[] {
  if (e.type === "proposal.decided") {
    const decision = (e.payload as { decision?: { decision?: string } } | null)?.decision?.decision;
    return [decision === "pending" ? "proposal.pending" : "proposal.decided"];
  }
  return (WEBHOOK_EVENTS as readonly string[]).includes(e.type) && e.type !== "proposal.pending" ? [e.type as WebhookEvent] : [];
}

/** Deliveries are retried for this long after the event, then given up (the log keeps every attempt). */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The longest wait between two attempts. */
export const WEBHOOK_MAX_BACKOFF_MS = 60 * 60 * 1000;

/** Exponential backoff: the wait after the n-th failed attempt (1-based), doubling from `baseMs`, capped at an hour. */
export function webhookBackoffMs(attempt: number, baseMs: number): number {
  return Math.min(WEBHOOK_MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** The header a delivery is signed in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = "Faultline-Signature";

export const webhookSubscriptionInput = z.strictObject({
  url: z
    .string({ error: "is required" })
    .trim()
    .url("must be an http(s) URL such as https://hooks.example.org/faultline")
    .refine((u) => /^https?:\/\//i.test(u), "must start with http:// or https://"),
  events: z.array(z.enum(WEBHOOK_EVENTS, { error: `must be some of ${WEBHOOK_EVENTS.join(", ")}` }), { error: "must be a list of events" }).min(1, "choose at least one event"),
  description: z.string().trim().max(200, "must be at most 200 characters").nullish(),
});
export type WebhookSubscriptionInput = z.infer<typeof webhookSubscriptionInput>;
