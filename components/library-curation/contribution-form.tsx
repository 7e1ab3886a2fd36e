"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState, useTransition, type ReactNode } from "react";
import { checkContributionAction, saveContributionAction } from "@/app/(console)/contributions/actions";
import { EntryView } from "@/components/library/entry-view";
import { CATEGORIES, RISK_LEVELS, SOURCES } from "@/lib/library/entry";
import type { FieldError } from "@/server/action-result";
import { entryFromForm, FIELD_LABELS, type EntryFormValues } from "./form-model";
import * as ui from "@/components/ui/styles";

type Similar = { results: Array<{ failure_id: string; match_score: number; hypothesis: string }>; abstained: boolean };

export interface ContributionFormProps {
  /** Set when changing an existing contribution (own, or an orchestrator draft being picked up). */
  contributionId?: string;
  /** Set for an edit of an existing entry. */
  targetFailureId?: string | null;
  initial: EntryFormValues;
  initialVariantOf?: string | null;
  initialDomain?: "physical" | "software" | null;
  initialSummary?: string;
}

/** Text limits shown beside the fields (the server enforces the same through the entry schema). */
/** Two fields side by side (they wrap on narrow screens). */
const FIELD_ROW = "grid grid-cols-[repeat(auto-fit,minmax(200px,1fr))] items-start gap-3";
/** A choice among the similar entries. */
const SIMILAR_ITEM = "flex items-center gap-2.5 rounded-md bg-surface-2 px-2 py-[5px] text-[13.5px]";

const LIMITS: Partial<Record<keyof EntryFormValues, number>> = { title: 80, surface_symptom: 400, hidden_reality: 1000, diagnostic_probe: 1000, resolution_path: 1000, risk_notes: 500 };

/**
 * The contribution form: every entry field with its own error message, a live preview, a "Check for
 * similar entries" step (match scores from the library's ranking, or its abstention) where the
 * contributor may mark theirs as a variant, then "Save draft" or "Submit for review".
 */
/** A field's errors under it, each "✕ …" announced (role=alert). */
function FieldErrors({ messages, testId }: { messages: string[]; testId?: string }) {
  return messages.map((m, i) => (
    <p key={i} className={ui.fieldError} role="alert" data-testid={testId}>
      ✕ {m}
    </p>
  ));
}

export function ContributionForm(props: ContributionFormProps) {
  const router = useRouter();
  const [values, setValues] = useState<EntryFormValues>(props.initial);
  const [variantOf, setVariantOf] = useState<string>(props.initialVariantOf ?? "");
  const [domain, setDomain] = useState<string>(props.initialDomain ?? "");
  const [summary, setSummary] = useState(props.initialSummary ?? "");
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [similar, setSimilar] = useState<Similar | null>(null);
  const [pending, start] = useTransition();
  const uid = useId();
  const isEdit = !!props.targetFailureId;
  const parsed = useMemo(() => entryFromForm(values), [values]);

  const errorFor = (path: string) => errors.filter((e) => e.path === path || e.path.startsWith(`${path}.`)).map((e) => e.message);
  const set = (k: keyof EntryFormValues) => (v: string) => setValues((s) => ({ ...s, [k]: v }));

  function check() {
    start(async () => {
      setMessage(null);
      if (parsed.errors.length) {
        setErrors(parsed.errors);
        return;
      }
      const r = await checkContributionAction({ entry: parsed.entry });
      if (r.status === "error") {
        setMessage(r.error.message);
        return;
      }
      setErrors(r.data.fieldErrors);
      setSimilar(r.data.similar);
    });
  }

  function save(submit: boolean) {
    start(async () => {
      setMessage(null);
      if (parsed.errors.length) {
        setErrors(parsed.errors);
        setMessage("Some fields are not valid; see the messages beside them.");
        return;
      }
      const input = {
        entry: parsed.entry,
        submit,
        summary,
        ...(props.targetFailureId ? { target_failure_id: props.targetFailureId } : {}),
        ...(!isEdit && variantOf ? { variant_of: variantOf } : {}),
        ...(!isEdit && domain ? { domain: domain as "physical" | "software" } : {}),
      };
      const r = await saveContributionAction({ id: props.contributionId, input });
      if (r.status === "error") {
        setErrors(r.error.fieldErrors ?? []);
        setMessage(r.error.message);
        return;
      }
      router.push(`/contributions/${r.data.id}`);
      router.refresh();
    });
  }

  const field = (k: keyof EntryFormValues, control: (p: { id: string; invalid: boolean; describedBy: string }) => ReactNode, hint?: string) => {
    const id = `${uid}-${k}`;
    const errs = errorFor(`entry.${k}`);
    const limit = LIMITS[k];
    return (
      <div className={ui.cx(ui.field, "content-start")} data-testid={`field-${k}`}>
        <label htmlFor={id}>{FIELD_LABELS[k]}</label>
        {control({ id, invalid: errs.length > 0, describedBy: `${id}-help` })}
        <div id={`${id}-help`} className="[&_p]:m-0">
          <FieldErrors messages={errs} testId={`error-${k}`} />
          {hint || limit ? (
            <p className="text-muted text-sm">
              {hint}
              {hint && limit ? " · " : ""}
              {limit ? `${values[k].length} / ${limit}` : ""}
            </p>
          ) : null}
        </div>
      </div>
    );
  };
  const textInput = (k: keyof EntryFormValues, rows = 0) =>
    field(k, ({ id, invalid, describedBy }) =>
      rows ? (
        <textarea id={id} rows={rows} value={values[k]} onChange={(e) => set(k)(e.target.value)} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid={`input-${k}`} />
      ) : (
        <input id={id} type="text" value={values[k]} onChange={(e) => set(k)(e.target.value)} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid={`input-${k}`} />
      ),
    );
  const select = (k: keyof EntryFormValues, options: readonly string[], hint?: string) =>
    field(
      k,
      ({ id, invalid, describedBy }) => (
        <select id={id} value={values[k]} onChange={(e) => set(k)(e.target.value)} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid={`input-${k}`}>
          <option value="">Choose…</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {o.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      ),
      hint,
    );

  return (
    <div className="grid grid-cols-[minmax(0,1.25fr)_minmax(300px,1fr)] items-start gap-5 max-[1101px]:grid-cols-[minmax(0,1fr)]">
      <form className={ui.cx(ui.card, "grid gap-4 px-[18px] py-4 [&_input[type=text]]:min-h-[34px] [&_select]:min-h-[34px] [&_select]:w-full")} onSubmit={(e) => e.preventDefault()} noValidate data-testid="contribution-form">
        {isEdit ? (
          <p className={ui.notice}>
            Proposing an edit of <Link prefetch={false} href={`/library/${props.targetFailureId}`}>{props.targetFailureId}</Link>. Reviewers see a field-by-field diff against the current entry.
          </p>
        ) : null}
        {textInput("title")}
        <div className={FIELD_ROW}>
          {select("category", CATEGORIES)}
          {select("risk_level", RISK_LEVELS, "Requires-Oversight: a person approves before the probe runs")}
        </div>
        {textInput("surface_symptom", 3)}
        {textInput("hidden_reality", 4)}
        {textInput("diagnostic_probe", 3)}
        {textInput("resolution_path", 3)}
        {textInput("risk_notes", 2)}
        {field("context_tags", ({ id, invalid, describedBy }) => <input id={id} type="text" value={values.context_tags} onChange={(e) => set("context_tags")(e.target.value)} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid="input-context_tags" />, "comma separated, lower case, up to 20")}
        {field("references", ({ id, invalid, describedBy }) => <textarea id={id} rows={2} value={values.references} onChange={(e) => set("references")(e.target.value)} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid="input-references" />, "one per line")}
        <div className={FIELD_ROW}>
          {select("source", SOURCES)}
          {!isEdit ? (
            <div className={ui.field} data-testid="field-domain">
              <label htmlFor={`${uid}-domain`}>Id series</label>
              <select id={`${uid}-domain`} value={domain} onChange={(e) => setDomain(e.target.value)} aria-invalid={errorFor("domain").length > 0 || undefined} data-testid="input-domain">
                <option value="">Guess from the entry</option>
                <option value="physical">Physical / embodied (FM-PHY-####)</option>
                <option value="software">Software agent (FM-SW-####)</option>
              </select>
              <FieldErrors messages={errorFor("domain")} />
            </div>
          ) : null}
        </div>
        <details className="grid gap-2.5 rounded-md border border-border px-3 py-2 [&>summary]:cursor-pointer [&>summary]:text-[13px] [&>summary]:font-[550]" open={!!(values.probe_action || values.resolution_action) || undefined}>
          <summary>Machine-executable probe and resolution (optional, JSON or YAML)</summary>
          {field("probe_action", ({ id, invalid, describedBy }) => <textarea id={id} className="font-mono text-sm leading-normal" rows={5} spellCheck={false} placeholder={"tool: shell\nargs: { command: which, args: [git] }\nconfirm_when: { exit_code: 1 }"} value={values.probe_action} onChange={(e) => set("probe_action")(e.target.value)} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid="input-probe_action" />, "{ tool: shell | http | file, args, confirm_when: { exit_code | output_matches | http_status } }, at most 8 KB")}
          {field("resolution_action", ({ id, invalid, describedBy }) => <textarea id={id} className="font-mono text-sm leading-normal" rows={5} spellCheck={false} placeholder={"tool: shell\nargs: { command: apt-get, args: [install, -y, git] }\nexpect: { exit_code: 0 }"} value={values.resolution_action} onChange={(e) => set("resolution_action")(e.target.value)} aria-invalid={invalid || undefined} aria-describedby={describedBy} data-testid="input-resolution_action" />, "{ tool, args, expect: { … } }, at most 8 KB")}
        </details>
        <div className={ui.field}>
          <label htmlFor={`${uid}-summary`}>Note for reviewers (optional)</label>
          <input id={`${uid}-summary`} type="text" value={summary} onChange={(e) => setSummary(e.target.value)} maxLength={500} data-testid="input-summary" />
          <FieldErrors messages={errorFor("summary")} />
        </div>

        <section className="grid gap-2 border-t border-border pt-3" aria-labelledby={`${uid}-similar`} data-testid="similar-section">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={`${uid}-similar`} className="text-[15px] font-[650]">
              Similar existing entries
            </h2>
            <button type="button" className={ui.button("secondary", "sm")} onClick={check} disabled={pending} data-testid="check-similar">
              Check for similar entries
            </button>
          </div>
          {similar === null ? (
            <p className="text-muted text-sm">Check before submitting: if an entry already describes this failure, propose an edit of it, or mark yours as a variant.</p>
          ) : similar.abstained || similar.results.length === 0 ? (
            <p className={ui.notice} data-testid="similar-abstained">
              The library abstains: no existing entry matches this symptom closely enough. This looks like a new failure mode.
            </p>
          ) : (
            <fieldset className="m-0 grid gap-1 border-0 p-0" data-testid="similar-list">
              <legend className="text-muted text-sm">Highest match first. {isEdit ? "" : "Mark yours as a variant of one, or leave it independent."}</legend>
              {similar.results.map((r) => (
                <label key={r.failure_id} className={SIMILAR_ITEM} data-testid="similar-item" data-failure-id={r.failure_id}>
                  {!isEdit ? <input type="radio" name={`${uid}-variant`} value={r.failure_id} checked={variantOf === r.failure_id} onChange={() => setVariantOf(r.failure_id)} data-testid="variant-choice" /> : null}
                  <span className="min-w-[3em] font-bold tabular-nums" title="match_score: calibrated probability that this entry is the right hypothesis">
                    {r.match_score.toFixed(2)}
                  </span>
                  <Link prefetch={false} href={`/library/${r.failure_id}`} target="_blank">
                    {r.failure_id}
                  </Link>
                  <span>{r.hypothesis}</span>
                </label>
              ))}
              {!isEdit ? (
                <label className={SIMILAR_ITEM}>
                  <input type="radio" name={`${uid}-variant`} value="" checked={variantOf === ""} onChange={() => setVariantOf("")} />
                  <span>Not a variant: an independent entry</span>
                </label>
              ) : null}
            </fieldset>
          )}
          <FieldErrors messages={errorFor("variant_of")} />
        </section>

        {message ? (
          <div className={ui.errorBox} role="alert" data-testid="form-error">
            <p>{message}</p>
          </div>
        ) : null}
        <footer className="flex flex-wrap items-center justify-end gap-2 border-t border-border pt-3">
          <button type="button" className={ui.button("secondary")} onClick={() => save(false)} disabled={pending} data-testid="save-draft">
            Save draft
          </button>
          <button type="button" className={ui.button("primary")} onClick={() => save(true)} disabled={pending} data-testid="submit-contribution">
            {pending ? "Working…" : "Submit for review"}
          </button>
        </footer>
      </form>
      <aside className="sticky top-4 grid gap-2 max-[1101px]:static" aria-label="Preview" data-testid="preview">
        <h2 className="text-[15px] font-[650]">Preview</h2>
        <p className="text-muted text-sm">How the entry will read in the library.{variantOf ? ` Variant of ${variantOf}.` : ""}</p>
        <EntryView entry={parsed.entry} heading={{ failureId: props.targetFailureId ?? null }} />
      </aside>
    </div>
  );
}
