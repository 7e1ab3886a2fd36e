/** The expandable "Technical details" of a user-facing error: key/value pairs, multi-line values as blocks. */
export function TechnicalDetails({ entries }: { entries: ReadonlyArray<readonly [string, unknown]> }) {
  return (
    <details className="technical">
      <summary>Technical details</summary>
      <dl className="kv">
        {entries.map(([k, v]) => (
          <div key={k} className="kv-row">
            <dt>{k}</dt>
            <dd>{typeof v === "string" && v.includes("\n") ? <pre>{v}</pre> : <code>{typeof v === "string" ? v : JSON.stringify(v)}</code>}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
