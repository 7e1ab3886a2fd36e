import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/client";
import { claimDueWebhooks, queueWebhookDeliveries, recordWebhookAttempt, type DueDelivery } from "../db/queries/webhooks";
import type { WebhookAttempt } from "../db/schema";
import { SIGNATURE_HEADER, webhookBackoffMs } from "../lib/webhooks";

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: what a receiver recomputes to trust a delivery. */
export function signWebhook(secret: string, body: string, timestampSec = Math.floor(Date.now() / 1000)): string {
  return `t=${timestampSec},v1=${createHmac("sha256", secret).update(`${timestampSec}.${body}`).digest("hex")}`;
}

/**
 * For receivers (and tests): true when `header` signs `body` with `secret` and its timestamp is within
 * `toleranceSec` of now (a replayed old delivery is refused). Compare in constant time.
 */
export function verifyWebhookSignature(secret: string, header: string | null, body: string, toleranceSec = 300, nowSec = Math.floor(Date.now() / 1000)): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(nowSec - t) > toleranceSec) return false;
  const expected = Buffer.from(signWebhook(secret, body, t).split("v1=")[1], "hex");
  const given = Buffer.from(m[2], "hex");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface WebhookDispatcherOptions {
  db: Db;
  /** First retry after this many ms, doubling (FAULTLINE_WEBHOOK_RETRY_MS, default 10 s). */
  retryBaseMs: number;
  /** How often it looks for new events and due deliveries when not woken (default 1 s). */
  pollMs?: number;
  /** Events younger than this are left for the next round (their transaction may still be committing). */
  settleMs?: number;
  /** One attempt's time limit (default 10 s). */
  timeoutMs?: number;
  log?: (msg: string) => void;
}

/**
 * Sends webhook deliveries from the worker process, beside the missions and never in their way: its own
 * timer, its own queries, HTTP with a time limit, nothing awaited by the mission loop. Every attempt is
 * recorded; failures are retried with exponential backoff for 24 hours.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  constructor(private readonly opts: WebhookDispatcherOptions) {}

  start(): void {
    this.schedule(0);
  }

  /** A NOTIFY said something was appended: look now rather than at the next poll. */
  wake(): void {
    if (!this.stopped && !this.running) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.round().finally(() => {
        this.running = null;
        if (!this.stopped) this.schedule(this.opts.pollMs ?? 1000);
      });
    }, ms);
    this.timer.unref?.();
  }

  /** One round: queue new events, then send what is due. Errors are logged, never thrown (the next round retries). */
  async round(): Promise<void> {
    try {
      await queueWebhookDeliveries(this.opts.db, { settleMs: this.opts.settleMs ?? 1000 });
      const due = await claimDueWebhooks(this.opts.db, { limit: 20, leaseMs: (this.opts.timeoutMs ?? 10_000) * 3 });
      await Promise.all(due.map((d) => this.send(d)));
    } catch (e) {
      this.opts.log?.(`webhooks: ${(e as Error).message.split("\n")[0]}; retrying`);
    }
  }

  private async send(d: DueDelivery): Promise<void> {
    const body = JSON.stringify({ id: d.id, ...d.payload });
    const started = performance.now();
    let attempt: WebhookAttempt;
    try {
      const res = await fetch(d.url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "Faultline-Webhooks/1", "faultline-event": d.eventType, "faultline-delivery": d.id, [SIGNATURE_HEADER.toLowerCase()]: signWebhook(d.secret, body) },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
      await res.body?.cancel().catch(() => {});
      attempt = { at: new Date().toISOString(), status: res.status, error: res.ok ? null : `answered ${res.status} ${res.statusText}`.trim(), ms: Math.round(performance.now() - started) };
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const why = err.name === "TimeoutError" ? `no answer within ${this.opts.timeoutMs ?? 10_000} ms` : (err.cause?.code ?? err.cause?.message ?? err.message);
      attempt = { at: new Date().toISOString(), status: null, error: why, ms: Math.round(performance.now() - started) };
    }
    const outcome = await recordWebhookAttempt(this.opts.db, d, attempt, webhookBackoffMs(d.attempts.length + 1, this.opts.retryBaseMs));
    if (outcome !== "delivered") this.opts.log?.(`webhook ${d.eventType} to ${d.url}: ${attempt.error}${outcome === "gave_up" ? "; gave up after 24 h" : "; will retry"}`);
  }
}
