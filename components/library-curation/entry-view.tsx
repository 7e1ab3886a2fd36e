import { RiskBadge } from "./status";

/**
 * A library entry (or a contribution's proposed entry, possibly incomplete) as people read it. Every
 * value is rendered as React text: contributed HTML or script shows as the characters typed.
 */
export function EntryView({ entry, failureId }: { entry: Record<string, unknown>; failureId?: string | null }) {
  const s = (k: string) => (typeof entry[k] === "string" ? (entry[k] as string) : "");
  const list = (k: string) => (Array.isArray(entry[k]) ? (entry[k] as unknown[]).map(String) : []);
  const missing = <span className="muted">(not given)</span>;
  const text = (k: string) => (s(k) ? <p className="entry-text">{s(k)}</p> : missing);
  return (
    <article className="entry-view" data-testid="entry-view">
      <header className="entry-head">
        <h3 className="entry-title" data-testid="entry-title">
          {s("title") || <span className="muted">(title derived from the hidden reality)</span>}
        </h3>
        <div className="row">
          <code>{failureId ?? "new id at approval"}</code>
          {s("category") ? <span className="badge tone-neutral">{s("category")}</span> : null}
          <RiskBadge risk={s("risk_level") || undefined} />
          {s("source") ? <span className="muted small">source: {s("source").replaceAll("_", " ")}</span> : null}
        </div>
      </header>
      <dl className="kv entry-kv">
        <div className="kv-row">
          <dt>Surface symptom</dt>
          <dd data-testid="entry-symptom">{text("surface_symptom")}</dd>
        </div>
        <div className="kv-row">
          <dt>Hidden reality</dt>
          <dd>{text("hidden_reality")}</dd>
        </div>
        <div className="kv-row">
          <dt>Diagnostic probe</dt>
          <dd>{text("diagnostic_probe")}</dd>
        </div>
        <div className="kv-row">
          <dt>Resolution path</dt>
          <dd>{text("resolution_path")}</dd>
        </div>
        {s("risk_notes") ? (
          <div className="kv-row">
            <dt>Risk notes</dt>
            <dd>{text("risk_notes")}</dd>
          </div>
        ) : null}
        <div className="kv-row">
          <dt>Context tags</dt>
          <dd>{list("context_tags").length ? <span className="tag-list">{list("context_tags").map((t) => <span key={t} className="tag">{t}</span>)}</span> : missing}</dd>
        </div>
        {list("references").length ? (
          <div className="kv-row">
            <dt>References</dt>
            <dd>
              <ul className="plain-list">
                {list("references").map((r, i) => (
                  <li key={i}>{r}</li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
        {entry.probe_action ? (
          <div className="kv-row">
            <dt>Probe action</dt>
            <dd>
              <pre>{JSON.stringify(entry.probe_action, null, 2)}</pre>
            </dd>
          </div>
        ) : null}
        {entry.resolution_action ? (
          <div className="kv-row">
            <dt>Resolution action</dt>
            <dd>
              <pre>{JSON.stringify(entry.resolution_action, null, 2)}</pre>
            </dd>
          </div>
        ) : null}
      </dl>
    </article>
  );
}
