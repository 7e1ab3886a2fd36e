/** The expandable "Technical details" of a user-facing error: key/value pairs, multi-line values as blocks. */
export function TechnicalDetails({ entries }: { entries: ReadonlyArray<readonly [string, unknown]> }) {
  return (
    <details>
      <summary className="w-fit cursor-pointer text-sm text-link">Technical details</summary>
      <dl className="mx-0 mt-2 mb-0 grid gap-0.5 text-sm">
        {entries.map(([k, v]) => (
          <div key={k} className="grid grid-cols-[140px_1fr] gap-2.5 border-b border-dashed border-border py-[3px]">
            <dt className="text-muted">{k}</dt>
            <dd className="m-0 min-w-0 break-words">{typeof v === "string" && v.includes("\n") ? <pre className="max-h-60 overflow-auto rounded bg-surface-2 px-2 py-1.5">{v}</pre> : <code>{typeof v === "string" ? v : JSON.stringify(v)}</code>}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
