import { FIELD_LABELS } from "./form-model";

const show = (v: unknown) => (v === null || v === undefined ? "" : Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v, null, 2) : String(v));

/** Side-by-side field diff of an edit: every field, before | after, the changed ones highlighted and marked. */
export function DiffTable({ before, after }: { before: Record<string, unknown>; after: Record<string, unknown> }) {
  const fields = Object.keys(FIELD_LABELS);
  const norm = (v: unknown) => JSON.stringify(v === undefined ? null : Array.isArray(v) && v.length === 0 ? null : v);
  const changed = fields.filter((f) => norm(before[f]) !== norm(after[f]));
  return (
    <div className="table-wrap">
      <table className="table diff-table" data-testid="diff-table">
        <caption className="sr-only">Field by field: the current entry and the proposed edit</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before (current entry)</th>
            <th scope="col">After (proposed)</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const isChanged = changed.includes(f);
            return (
              <tr key={f} className={isChanged ? "diff-changed" : undefined} data-testid="diff-row" data-field={f} data-changed={isChanged ? "true" : "false"}>
                <th scope="row">
                  {FIELD_LABELS[f]}
                  {isChanged ? <span className="diff-mark"> ● changed</span> : null}
                </th>
                <td className={isChanged ? "diff-before" : undefined}>
                  <pre>{show(before[f]) || "—"}</pre>
                </td>
                <td className={isChanged ? "diff-after" : undefined}>
                  <pre>{show(after[f]) || "—"}</pre>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted small diff-summary" data-testid="diff-summary">
        {changed.length ? `${changed.length} field${changed.length === 1 ? "" : "s"} changed: ${changed.map((f) => FIELD_LABELS[f]).join(", ")}.` : "No field changes."}
      </p>
    </div>
  );
}
