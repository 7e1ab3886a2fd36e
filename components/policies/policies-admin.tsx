"use client";

import { ConfirmButton } from "../ui/dialog";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState, useTransition, type FormEvent } from "react";
import { createPolicyAction, deletePolicyAction, updatePolicyAction } from "@/app/(console)/admin/policies/actions";
import type { PolicyView } from "@/db/queries/gate-policies";
import { DECIDING_ROLES, formatDuration, POLICY_GATE_KINDS, TIMEOUT_OUTCOMES, type GatePolicyInput, type PolicyGateKind } from "@/lib/mission/gate-policy";
import { splitGroups } from "@/lib/auth/user-admin";
import { FieldMessages, FormErrorBox, toFormError, type FormError } from "@/components/admin/form-errors";
import { DataTable, rowHeaderColumn, type DataColumn } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/relative-time";
import { SubmitRow } from "../ui/submit-row";
import { ActionMessage } from "../ui/action-message";
import { useRowAction } from "../ui/use-row-action";
import * as ui from "@/components/ui/styles";

export type PolicyItem = PolicyView & { updatedByName: string };

const UNITS = { min: 60_000, h: 3600_000, d: 86_400_000 } as const;
type Unit = keyof typeof UNITS;
const KIND_LABEL: Record<PolicyGateKind, string> = { agent: "Agent gates", phase: "Phase gates", recovery: "Recovery gates", approval: "Approval gates", library: "Library gates", "*": "Every gate kind" };

/** A timeout in the largest unit that divides it: 4 h → [4, "h"]. */
function splitTimeout(ms: number | null): [string, Unit] {
  if (!ms) return ["", "h"];
  for (const u of ["d", "h", "min"] as const) if (ms % UNITS[u] === 0) return [String(ms / UNITS[u]), u];
  return [String(Math.round(ms / 60_000)), "min"];
}

/** The list of gate policies with edit / delete, and the form that creates or replaces one. */
export function PoliciesAdmin({ policies, definitions }: { policies: PolicyItem[]; definitions: string[] }) {
  const [editing, setEditing] = useState<PolicyItem | null>(null);
  const [formKey, setFormKey] = useState(0);
  const router = useRouter();
  const { pending, outcome, setOutcome, run } = useRowAction();

  function remove(p: PolicyItem) {
    if (editing?.id === p.id) setEditing(null);
    run(() => deletePolicyAction({ id: p.id }), `Deleted the policy for ${p.scope}.`);
  }

  const columns = useMemo<DataColumn<PolicyItem>[]>(
    () => [
      rowHeaderColumn({
        id: "scope",
        header: "Scope",
        sortValue: (p) => p.scope,
        name: (p) => (p.definition === "*" ? <em>Every definition</em> : p.definition),
        detail: (p) => KIND_LABEL[p.gateKind],
        detailWeight: "header",
      }),
      { id: "who", header: "Who may decide", sortValue: (p) => p.who, cell: (p) => p.who },
      { id: "approvals", header: "Approvals", numeric: true, sortValue: (p) => p.approvalsRequired, cell: (p) => p.approvalsRequired },
      { id: "starter", header: "Starter", sortValue: (p) => (p.starterMayDecide ? 1 : 0), cell: (p) => (p.starterMayDecide ? "may decide" : <strong>may not decide</strong>) },
      { id: "timeout", header: "Timeout", sortValue: (p) => p.timeoutMs, cell: (p) => (p.timeoutMs ? `${formatDuration(p.timeoutMs)} → ${p.timeoutOutcome}` : <span className="text-muted">none</span>) },
      {
        id: "updated",
        header: "Updated",
        sortValue: (p) => Date.parse(p.updatedAt),
        cell: (p) => (
          <>
            {p.updatedByName}
            <div className="text-muted text-sm">
              <RelativeTime iso={p.updatedAt} />
            </div>
          </>
        ),
      },
      {
        id: "actions",
        header: <span className="sr-only">Actions</span>,
        label: "Actions",
        alwaysVisible: true,
        cell: (p) => (
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              className={ui.button("secondary")}
              onClick={() => {
                setEditing(p);
                setFormKey((k) => k + 1);
                setOutcome(null);
              }}
              data-testid="policy-edit"
            >
              Edit
            </button>
            <ConfirmButton disabled={pending} testId="policy-delete" title={`Delete the policy for ${p.scope}?`} question="Open gates keep the policy they opened under; gates opened from now on no longer use it." confirmLabel="Delete policy" onConfirm={() => remove(p)}>
              Delete
            </ConfirmButton>
          </div>
        ),
      },
    ],
    // `remove` closes over the row action and `editing`.
    [pending, editing],
  );

  return (
    <>
      <DataTable
        data={policies}
        columns={columns}
        rowTestId="policy-row"
        rowAttrs={(p) => ({ "data-definition": p.definition, "data-kind": p.gateKind })}
        label="Gate policies"
        testId="policies-table"
        empty="No gate policies yet: every gate can be decided by one admin or operator, without a timeout."
      />
      {/* One block, there only with a message: the page's gaps stay as they are without one. */}
      {outcome ? (
        <div>
          <ActionMessage outcome={outcome} testId="policy-result" errorTestId="policy-result" />
        </div>
      ) : null}
      <PolicyForm
        key={formKey}
        policy={editing}
        definitions={definitions}
        onCancel={() => {
          setEditing(null);
          setFormKey((k) => k + 1);
        }}
        onSaved={(text) => {
          setOutcome({ ok: true, text });
          setEditing(null);
          setFormKey((k) => k + 1);
          router.refresh();
        }}
      />
    </>
  );
}

function PolicyForm({ policy, definitions, onSaved, onCancel }: { policy: PolicyItem | null; definitions: string[]; onSaved: (text: string) => void; onCancel: () => void }) {
  const ids = { definition: useId(), definitions: useId(), kind: useId(), roles: useId(), groups: useId(), approvals: useId(), starter: useId(), timeout: useId(), unit: useId(), outcome: useId(), note: useId(), e: useId() };
  const [kind, setKind] = useState<PolicyGateKind>(policy?.gateKind ?? "agent");
  const [initialAmount, initialUnit] = splitTimeout(policy?.timeoutMs ?? null);
  const [amount, setAmount] = useState(initialAmount);
  const [err, setErr] = useState<FormError | null>(null);
  const [pending, start] = useTransition();
  const outcomes = TIMEOUT_OUTCOMES[kind];

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const n = Number(f.get("timeout"));
    const timed = String(f.get("timeout") ?? "").trim() !== "";
    const input: GatePolicyInput = {
      definition: String(f.get("definition") ?? ""),
      gateKind: kind,
      roles: f.getAll("roles").map(String) as GatePolicyInput["roles"],
      groups: splitGroups(String(f.get("groups") ?? "")),
      approvalsRequired: Number(f.get("approvals")),
      starterMayDecide: f.get("starter") === "on",
      timeoutMs: timed ? Math.round(n * UNITS[String(f.get("unit")) as Unit]) : null,
      timeoutOutcome: timed ? (String(f.get("outcome")) as GatePolicyInput["timeoutOutcome"]) : null,
      note: String(f.get("note") ?? ""),
    };
    start(async () => {
      const r = policy ? await updatePolicyAction({ id: policy.id, policy: input }) : await createPolicyAction(input);
      if (r.status === "error") {
        // Field paths of the update are under `policy.`.
        const fe = toFormError(r.error);
        setErr({ ...fe, fields: fe.fields.map((x) => ({ ...x, path: x.path.replace(/^policy\./, "") })) });
        return;
      }
      setErr(null);
      onSaved(`${policy ? "Saved" : "Created"} the policy for ${input.definition.trim() === "*" ? "every definition" : `'${input.definition.trim()}'`}, ${KIND_LABEL[kind].toLowerCase()}.`);
    });
  }

  const describedBy = (path: string, id: string) => (err?.fields.some((x) => x.path === path || x.path.startsWith(`${path}.`)) ? `${id}-err` : undefined);

  return (
    <form className={ui.cx(ui.card, "grid gap-3.5 p-4 [&_select]:min-h-9")} onSubmit={onSubmit} noValidate data-testid="policy-form" aria-labelledby={ids.e}>
      <h2 id={ids.e} className="m-0 text-[16px]">
        {policy ? `Edit the policy for ${policy.scope}` : "New policy"}
      </h2>
      <FormErrorBox err={err} testId="policy-form-error" />
      <div className="grid grid-cols-[repeat(auto-fit,minmax(240px,1fr))] items-start gap-x-[18px] gap-y-3.5">
        <div className={ui.field}>
          <label htmlFor={ids.definition}>Mission definition</label>
          <input id={ids.definition} type="text" name="definition" list={ids.definitions} defaultValue={policy?.definition ?? ""} placeholder="e.g. Nightly deploy, or * for every definition" aria-describedby={describedBy("definition", ids.definition)} required />
          <datalist id={ids.definitions}>
            <option value="*">Every definition</option>
            {definitions.map((d) => (
              <option key={d} value={d} />
            ))}
          </datalist>
          <FieldMessages id={`${ids.definition}-err`} err={err} path="definition" />
        </div>
        <div className={ui.field}>
          <label htmlFor={ids.kind}>Gate kind</label>
          <select id={ids.kind} name="gateKind" value={kind} onChange={(e) => setKind(e.target.value as PolicyGateKind)} aria-describedby={describedBy("gateKind", ids.kind)}>
            {POLICY_GATE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
          <FieldMessages id={`${ids.kind}-err`} err={err} path="gateKind" />
        </div>
        <fieldset className={ui.cx(ui.field, "m-0 border-0 p-0 [&_legend]:mb-1 [&_legend]:p-0 [&_legend]:text-[13px] [&_legend]:font-[550]")} aria-describedby={describedBy("roles", ids.roles)}>
          <legend>Roles that may decide</legend>
          {DECIDING_ROLES.map((r) => (
            <label key={r} className="flex items-center gap-1.5 text-[13.5px] font-normal">
              <input type="checkbox" name="roles" value={r} defaultChecked={policy?.roles.includes(r) ?? false} /> {r}
            </label>
          ))}
          <p className="text-muted text-sm">None ticked: every role that decides gates (admin and operator).</p>
          <FieldMessages id={`${ids.roles}-err`} err={err} path="roles" />
        </fieldset>
        <div className={ui.field}>
          <label htmlFor={ids.groups}>Groups (any of them)</label>
          <input id={ids.groups} type="text" name="groups" defaultValue={policy?.groups.join(", ") ?? ""} placeholder="e.g. night-shift, on-call" aria-describedby={describedBy("groups", ids.groups)} />
          <FieldMessages id={`${ids.groups}-err`} err={err} path="groups" />
        </div>
        <div className={ui.field}>
          <label htmlFor={ids.approvals}>Distinct approvals needed</label>
          <input id={ids.approvals} name="approvals" type="number" min={1} max={10} defaultValue={policy?.approvalsRequired ?? 1} aria-describedby={describedBy("approvalsRequired", ids.approvals)} />
          <FieldMessages id={`${ids.approvals}-err`} err={err} path="approvalsRequired" />
        </div>
        <div className={ui.field}>
          <span className="mb-1 p-0 text-[13px] font-[550]">Mission starter</span>
          <label className="flex items-center gap-1.5 text-[13.5px] font-normal" htmlFor={ids.starter}>
            <input id={ids.starter} name="starter" type="checkbox" defaultChecked={policy?.starterMayDecide ?? true} /> The person who started the mission may decide its gates
          </label>
        </div>
        <div className={ui.field}>
          <label htmlFor={ids.timeout}>Timeout (empty: none)</label>
          <div className="flex flex-wrap items-center gap-2">
            <input id={ids.timeout} name="timeout" type="number" min={1} step="any" className="w-[7em] flex-[0_0_7em]" value={amount} onChange={(e) => setAmount(e.target.value)} aria-describedby={describedBy("timeoutMs", ids.timeout)} />
            <select name="unit" aria-label="Timeout unit" defaultValue={initialUnit}>
              <option value="min">minutes</option>
              <option value="h">hours</option>
              <option value="d">days</option>
            </select>
          </div>
          <FieldMessages id={`${ids.timeout}-err`} err={err} path="timeoutMs" />
        </div>
        <div className={ui.field}>
          <label htmlFor={ids.outcome}>Then the system chooses</label>
          <select id={ids.outcome} name="outcome" defaultValue={policy?.timeoutOutcome ?? "abort"} disabled={amount.trim() === ""} aria-describedby={describedBy("timeoutOutcome", ids.outcome)}>
            {outcomes.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          <FieldMessages id={`${ids.outcome}-err`} err={err} path="timeoutOutcome" />
        </div>
        <div className={ui.cx(ui.field, "col-span-full")}>
          <label htmlFor={ids.note}>Note (optional)</label>
          <input id={ids.note} type="text" name="note" defaultValue={policy?.note ?? ""} maxLength={500} placeholder="why this rule exists" />
          <FieldMessages id={`${ids.note}-err`} err={err} path="note" />
        </div>
      </div>
      <SubmitRow pending={pending} label={policy ? "Save policy" : "Create policy"} busy="Saving…" testId="policy-save">
        {policy ? (
          <button type="button" className={ui.button("ghost")} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </SubmitRow>
    </form>
  );
}
