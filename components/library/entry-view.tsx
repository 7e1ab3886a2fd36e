import type { EntryDetail } from "@/db/queries/library-browse";
import { RiskBadge, SOURCE_LABEL, TagList } from "./badges";

/** Every field of an entry, text rendered as text (never as HTML); machine actions as readable code blocks. */
export function EntryFields({ entry }: { entry: EntryDetail["entry"] }) {
  const rows: Array<[string, string, React.ReactNode]> = [
    ["surface_symptom", "Surface symptom", entry.surface_symptom],
    ["hidden_reality", "Hidden reality", entry.hidden_reality],
    ["diagnostic_probe", "Diagnostic probe", entry.diagnostic_probe],
    ["resolution_path", "Resolution path", entry.resolution_path],
  ];
  return (
    <div className="stack">
      <dl className="facts card lib-facts">
        <div>
          <dt>Category</dt>
          <dd data-testid="entry-category">{entry.category}</dd>
        </div>
        <div>
          <dt>Risk level</dt>
          <dd>
            <RiskBadge risk={entry.risk_level} />
          </dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>{SOURCE_LABEL[entry.source] ?? entry.source}</dd>
        </div>
        <div>
          <dt>Revision</dt>
          <dd>
            {entry.revision} (library version {entry.libraryVersion})
          </dd>
        </div>
      </dl>
      {entry.risk_notes ? (
        <p className="explanation" data-testid="entry-risk-notes">
          <strong>Risk depends on context:</strong> {entry.risk_notes}
        </p>
      ) : null}
      <dl className="lib-fields card">
        {rows.map(([key, label, value]) => (
          <div key={key} className="lib-field-row" data-testid={`entry-${key}`}>
            <dt>
              {label} <code className="muted small">{key}</code>
            </dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div className="lib-field-row">
          <dt>
            Context tags <code className="muted small">context_tags</code>
          </dt>
          <dd>{entry.context_tags.length ? <TagList tags={entry.context_tags} /> : <span className="muted">none</span>}</dd>
        </div>
        <div className="lib-field-row">
          <dt>References</dt>
          <dd>
            {entry.references.length ? (
              <ul className="lib-refs">
                {entry.references.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            ) : (
              <span className="muted">none</span>
            )}
          </dd>
        </div>
        <div className="lib-field-row">
          <dt>
            Probe action <code className="muted small">probe_action</code>
          </dt>
          <dd>{entry.probe_action ? <ActionBlock action={entry.probe_action} check={["confirmed when", entry.probe_action.confirm_when]} testId="entry-probe-action" /> : <span className="muted">none: an operator performs the probe at a gate and answers confirm or reject</span>}</dd>
        </div>
        <div className="lib-field-row">
          <dt>
            Resolution action <code className="muted small">resolution_action</code>
          </dt>
          <dd>{entry.resolution_action ? <ActionBlock action={entry.resolution_action} check={["succeeded when", entry.resolution_action.expect]} testId="entry-resolution-action" /> : <span className="muted">none: the resolution is proposed to an operator at a gate</span>}</dd>
        </div>
      </dl>
    </div>
  );
}

function ActionBlock({ action, check, testId }: { action: { tool: string; args: Record<string, unknown> }; check: [string, Record<string, unknown>]; testId: string }) {
  const command = action.tool === "shell" && typeof action.args.command === "string" ? [action.args.command, ...((Array.isArray(action.args.args) ? action.args.args : []) as unknown[]).map(String)] : null;
  return (
    <div className="stack-tight" data-testid={testId}>
      <span className="small">
        Tool <code>{action.tool}</code>
        {command ? (
          <>
            : runs <code>{command[0]}</code> without a shell
          </>
        ) : null}
      </span>
      <pre className="lib-code">{JSON.stringify(action.args, null, 2)}</pre>
      <span className="small">
        {check[0]}: <code>{JSON.stringify(check[1])}</code>
      </span>
    </div>
  );
}
