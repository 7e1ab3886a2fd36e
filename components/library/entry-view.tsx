import { RiskBadge, SOURCE_LABEL, TagList } from "./badges";
import * as ui from "@/components/ui/styles";

/** A label beside its value; in narrow places (a contribution's entry beside its reviews, the form's preview) and on small screens the label goes above. */
const FIELD_ROW =
  "grid grid-cols-[210px_minmax(0,1fr)] gap-3.5 border-b border-border py-[9px] last:border-b-0 @max-[560px]:grid-cols-1 @max-[560px]:gap-1 max-[1101px]:grid-cols-1 max-[1101px]:gap-1 [&>dd]:m-0 [&>dd]:min-w-0 [&>dd]:whitespace-pre-wrap [&>dd]:[overflow-wrap:anywhere] [&>dt]:grid [&>dt]:content-start [&>dt]:gap-0.5 [&>dt]:font-semibold";

/**
 * A library entry as people read it: a published entry (its page) or a contribution's proposed entry,
 * possibly incomplete (the contribution page, the form's preview), where a missing field reads
 * "(not given)". Every value is rendered as React text, never as HTML: contributed markup or script
 * shows as the characters typed. Machine actions are readable code blocks with their check.
 */
export function EntryView({ entry, heading, revision }: {
  /** The entry's fields by their schema names; any may be missing or malformed in a proposal. */
  entry: Record<string, unknown>;
  /** Show the title and id above the fields (where the page's own heading is not the entry's); `failureId` null: not assigned yet. */
  heading?: { failureId: string | null };
  /** A published entry's revision and the library version it belongs to. */
  revision?: { revision: number; libraryVersion: number };
}) {
  const s = (k: string) => (typeof entry[k] === "string" ? (entry[k] as string) : "");
  const list = (k: string) => (Array.isArray(entry[k]) ? (entry[k] as unknown[]).map(String) : []);
  const missing = <span className="text-muted">(not given)</span>;
  const rows: Array<[string, string]> = [
    ["surface_symptom", "Surface symptom"],
    ["hidden_reality", "Hidden reality"],
    ["diagnostic_probe", "Diagnostic probe"],
    ["resolution_path", "Resolution path"],
  ];
  const tags = list("context_tags");
  const references = list("references");
  return (
    <div className="grid gap-4" data-testid="entry-view">
      {heading ? (
        <header className="flex flex-wrap items-baseline gap-x-2.5 gap-y-1">
          <h3 className="text-[16px] font-[650] [overflow-wrap:anywhere]" data-testid="entry-title">
            {s("title") || <span className="text-muted">(title derived from the hidden reality)</span>}
          </h3>
          <code className="text-muted">{heading.failureId ?? "new id at approval"}</code>
        </header>
      ) : null}
      <dl className={ui.cx(ui.card, ui.facts, "px-3.5 py-2.5")}>
        <div>
          <dt>Category</dt>
          <dd data-testid="entry-category">{s("category") || missing}</dd>
        </div>
        <div>
          <dt>Risk level</dt>
          <dd>{s("risk_level") ? <RiskBadge risk={s("risk_level")} /> : missing}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>{s("source") ? (SOURCE_LABEL[s("source")] ?? s("source")) : missing}</dd>
        </div>
        {revision ? (
          <div>
            <dt>Revision</dt>
            <dd>
              {revision.revision} (library version {revision.libraryVersion})
            </dd>
          </div>
        ) : null}
      </dl>
      {s("risk_notes") ? (
        <p className={ui.explanation} data-testid="entry-risk-notes">
          <strong>Risk depends on context:</strong> {s("risk_notes")}
        </p>
      ) : null}
      <dl className={ui.cx(ui.card, "@container m-0 px-3.5 py-1")}>
        {rows.map(([key, label]) => (
          <div key={key} className={FIELD_ROW} data-testid={`entry-${key}`}>
            <dt>
              {label} <code className="text-muted text-sm">{key}</code>
            </dt>
            <dd>{s(key) || missing}</dd>
          </div>
        ))}
        <div className={FIELD_ROW}>
          <dt>
            Context tags <code className="text-muted text-sm">context_tags</code>
          </dt>
          <dd>{tags.length ? <TagList tags={tags} /> : <span className="text-muted">none</span>}</dd>
        </div>
        <div className={FIELD_ROW}>
          <dt>References</dt>
          <dd>
            {references.length ? (
              <ul className="m-0 whitespace-normal pl-[18px]">
                {references.map((r, i) => (
                  <li key={i}>{r}</li>
                ))}
              </ul>
            ) : (
              <span className="text-muted">none</span>
            )}
          </dd>
        </div>
        <div className={FIELD_ROW}>
          <dt>
            Probe action <code className="text-muted text-sm">probe_action</code>
          </dt>
          <dd>{entry.probe_action ? <ActionBlock action={entry.probe_action} check="confirm_when" testId="entry-probe-action" /> : <span className="text-muted">none: an operator performs the probe at a gate and answers confirm or reject</span>}</dd>
        </div>
        <div className={FIELD_ROW}>
          <dt>
            Resolution action <code className="text-muted text-sm">resolution_action</code>
          </dt>
          <dd>{entry.resolution_action ? <ActionBlock action={entry.resolution_action} check="expect" testId="entry-resolution-action" /> : <span className="text-muted">none: the resolution is proposed to an operator at a gate</span>}</dd>
        </div>
      </dl>
    </div>
  );
}

const CHECK_WORDS = { confirm_when: "confirmed when", expect: "succeeded when" } as const;

/** A probe or resolution action (`{ tool, args, confirm_when | expect }`); a proposal's may lack any part. */
function ActionBlock({ action, check, testId }: { action: unknown; check: keyof typeof CHECK_WORDS; testId: string }) {
  const a = (action && typeof action === "object" ? action : {}) as { tool?: unknown; args?: unknown; confirm_when?: unknown; expect?: unknown };
  const args = a.args && typeof a.args === "object" ? (a.args as Record<string, unknown>) : null;
  const shell = a.tool === "shell" && typeof args?.command === "string" ? args.command : null;
  const missing = <span className="text-muted">(not given)</span>;
  return (
    <div className="grid gap-2" data-testid={testId}>
      <span className="text-sm">
        Tool {typeof a.tool === "string" ? <code>{a.tool}</code> : missing}
        {shell ? (
          <>
            : runs <code>{shell}</code> without a shell
          </>
        ) : null}
      </span>
      {args ? <pre className="max-h-[280px] overflow-auto rounded border border-border bg-surface-2 px-2.5 py-2">{JSON.stringify(args, null, 2)}</pre> : <span className="text-sm">Arguments {missing}</span>}
      <span className="text-sm">
        {CHECK_WORDS[check]}: {a[check] !== undefined ? <code>{JSON.stringify(a[check])}</code> : missing}
      </span>
    </div>
  );
}
