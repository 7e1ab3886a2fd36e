"use client";

import { ConfirmButton } from "../ui/dialog";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState } from "react";
import { createWebhookAction, deleteWebhookAction, redeliverWebhookAction, setWebhookActiveAction } from "@/app/(console)/admin/webhooks/actions";
import type { WebhookSubscriptionView } from "@/db/queries/webhooks";
import type { WebhookAttempt } from "@/db/schema";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENTS } from "@/lib/webhooks";
import { DataTable, type DataColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";
import { IconBadge, StatusBadge } from "../ui/status";
import { FieldMessages, FormErrorBox, ShownOnce, toFormError, useFormSubmit } from "./form-errors";
import { SubmitRow } from "../ui/submit-row";
import * as ui from "@/components/ui/styles";

export interface DeliveryRow {
  id: string;
  eventType: string;
  missionId: string | null;
  status: "pending" | "delivered" | "gave_up";
  attempts: WebhookAttempt[];
  createdAt: string;
}

const DELIVERY_STATE = {
  delivered: { icon: "✓", label: "Delivered", tone: "success" },
  pending: { icon: "↻", label: "Retrying", tone: "paused" },
  gave_up: { icon: "✕", label: "Gave up", tone: "failed" },
} as const;

/** What each attempt got: "500 → 200", or the error when no answer came. */
function attemptsLine(attempts: WebhookAttempt[]): string {
  return attempts.length ? attempts.map((a) => (a.status === null ? `no answer (${a.error})` : String(a.status))).join(" → ") : "not yet sent";
}

export function WebhooksAdmin({ subscriptions, deliveries }: { subscriptions: WebhookSubscriptionView[]; deliveries: Record<string, DeliveryRow[]> }) {
  const router = useRouter();
  const ids = { url: useId(), desc: useId(), e: useId() };
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const { err, setErr, pending, start, onSubmit } = useFormSubmit(async (f, form) => {
    const r = await createWebhookAction({ url: String(f.get("url") ?? ""), events: f.getAll("events").map(String) as never, description: String(f.get("description") ?? "") || null });
    if (r.status === "error") return toFormError(r.error);
    setCreated({ url: r.data.url, secret: r.data.secret });
    form.reset();
    router.refresh();
    return null;
  });
  const act = (run: () => Promise<{ status: string; error?: { message: string } }>) =>
    start(async () => {
      const r = await run();
      if (r.status === "error" && r.error) return setErr({ message: r.error.message, fields: [] });
      setErr(null);
      router.refresh();
    });
  const deliveryColumns = useMemo<DataColumn<DeliveryRow>[]>(
    () => [
      { id: "when", header: "When", cell: (d) => <RelativeTime iso={d.createdAt} /> },
      {
        id: "event",
        header: "Event",
        cell: (d) => (
          <>
            <code>{d.eventType}</code>
            {d.missionId ? (
              <>
                {" "}
                <a className="text-link underline underline-offset-2 text-sm" href={`/missions/${d.missionId}`}>
                  mission
                </a>
              </>
            ) : null}
          </>
        ),
      },
      {
        id: "state",
        header: "State",
        cell: (d) => <StatusBadge looks={DELIVERY_STATE} value={d.status} testId="webhook-delivery-state" />,
      },
      {
        id: "attempts",
        header: "Attempts",
        className: "text-sm",
        cellProps: () => ({ "data-testid": "webhook-attempts" }),
        cell: (d) => {
          const last = d.attempts.at(-1);
          return (
            <>
              {attemptsLine(d.attempts)}
              {last?.error ? <div className="text-muted">{last.error}</div> : null}
            </>
          );
        },
      },
      {
        id: "actions",
        header: <span className="sr-only">Actions</span>,
        label: "Actions",
        cell: (d) => (
          <button type="button" className={ui.button("secondary")} disabled={pending} onClick={() => act(() => redeliverWebhookAction({ id: d.id }))}>
            Redeliver
          </button>
        ),
      },
    ],
    // `act` closes over the transition and the router only.
    [pending],
  );

  return (
    <>
      <section className={ui.panel} aria-labelledby="new-webhook-title">
        <h2 className="text-[15px] font-[650]" id="new-webhook-title">
          New subscription
        </h2>
        <form className="grid gap-2" onSubmit={onSubmit} noValidate data-testid="new-webhook-form">
          <div className={ui.field}>
            <label htmlFor={ids.url}>URL (receives a POST per event)</label>
            <input id={ids.url} name="url" type="text" inputMode="url" autoComplete="off" placeholder="https://hooks.example.org/faultline" aria-invalid={err?.fields.some((x) => x.path === "url") || undefined} aria-describedby={`${ids.e}-url`} />
            <FieldMessages id={`${ids.e}-url`} err={err} path="url" />
          </div>
          <fieldset className={ui.field} aria-describedby={`${ids.e}-events`}>
            <legend>Events</legend>
            {WEBHOOK_EVENTS.map((ev) => (
              <label key={ev} className="flex flex-wrap items-center gap-2">
                <input type="checkbox" name="events" value={ev} defaultChecked={ev === "gate.opened" || ev === "proposal.pending"} /> <code>{ev}</code> <span className="text-muted text-sm">{WEBHOOK_EVENT_DESCRIPTIONS[ev]}</span>
              </label>
            ))}
            <FieldMessages id={`${ids.e}-events`} err={err} path="events" />
          </fieldset>
          <div className={ui.field}>
            <label htmlFor={ids.desc}>Description (optional)</label>
            <input id={ids.desc} name="description" type="text" autoComplete="off" placeholder="ops pager" />
          </div>
          <SubmitRow pending={pending} label="Subscribe" busy="Subscribing…" testId="new-webhook-submit" />
        </form>
        <FormErrorBox err={err} testId="webhook-error" />
        <div aria-live="polite">{created ? <ShownOnce label={`Signing secret of ${created.url}`} value={created.secret} note="Shown only now: your receiver needs it to check each delivery's Faultline-Signature." testId="new-webhook-secret" /> : null}</div>
      </section>

      {subscriptions.length === 0 ? (
        <p className={ui.notice} data-testid="webhooks-empty">
          No subscriptions yet.
        </p>
      ) : (
        subscriptions.map((s) => (
          <section key={s.id} className={ui.panel} data-testid="webhook" aria-label={`Webhook ${s.url}`}>
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="text-[15px] font-[650]">
                <code>{s.url}</code>
              </h2>
              <IconBadge icon={s.active ? "✓" : "‖"} label={s.active ? "Active" : "Paused"} tone={s.active ? "success" : "neutral"} testId="webhook-state" value={s.active ? "active" : "paused"} />
            </div>
            <p className="text-sm">
              {s.events.map((e) => (
                <code key={e}>{e} </code>
              ))}
              {s.description ? <span className="text-muted"> — {s.description}</span> : null}
            </p>
            <p className="text-sm text-muted" data-testid="webhook-counts">
              {s.delivered} delivered, {s.pending} retrying, {s.gaveUp} given up
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <button type="button" className={ui.button("secondary")} disabled={pending} onClick={() => act(() => setWebhookActiveAction({ id: s.id, active: !s.active }))}>
                {s.active ? "Pause" : "Resume"}
              </button>
              <ConfirmButton disabled={pending} title="Delete this webhook?" question={`Deliveries to ${s.url} stop, and its delivery log is deleted with it.`} confirmLabel="Delete webhook" onConfirm={() => act(() => deleteWebhookAction({ id: s.id }))}>
                Delete
              </ConfirmButton>
            </div>
            <DataTable
              data={deliveries[s.id] ?? []}
              columns={deliveryColumns}
              rowTestId="webhook-delivery"
              rowAttrs={(d) => ({ "data-status": d.status })}
              label={`Latest deliveries to ${s.url}`}
              testId="webhook-deliveries"
              urlKey={null}
              columnMenu={false}
              empty="No deliveries yet."
            />
          </section>
        ))
      )}
    </>
  );
}
