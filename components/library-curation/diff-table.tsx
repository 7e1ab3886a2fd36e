import { FIELD_LABELS } from "./form-model";

const show = (v: unknown) => (v === null || v === undefined ? "" : Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v, null, 2) : String(v));

/**
 * Side-by-side field diff of an edit: every field, before | after, the changed ones highlighted and
 * marked. Defaults to a library entry's fields; `labels` gives other records' fields (the audit log's
 * before/after), `caption` / `columns` their words.
 */
export function DiffTable({ before, after, labels = FIELD_LABELS, caption = "Field by field: the current entry and the proposed edit", columns = ["Before (current entry)", "After (proposed)"] }: { before: Record<string, unknown>; after: Record<string, unknown>; labels?: Record<string, string>; caption?: string; columns?: [string, string] }) {
  const fields = Object.keys(labels);
  const norm = (v: unknown) => JSON.stringify(v === undefined ? null : Array.isArray(v) && v.length === 0 ? null : v);
  const changed = fields.filter((f) => norm(before[f]) !== norm(after[f]));
  return (
    <div className="table-wrap">
      <table className="table diff-table" data-testid="diff-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const isChanged = changed.includes(f);
            return (
              <tr key={f} className={isChanged ? "diff-changed" : undefined} data-testid="diff-row" data-field={f} data-changed={isChanged ? "true" : "false"}>
                <th scope="row">
                  {labels[f]}
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
      <p className="text-muted text-sm diff-summary" data-testid="diff-summary">
        {changed.length ? `${changed.length} field${changed.length === 1 ? "" : "s"} changed: ${changed.map((f) => labels[f]).join(", ")}.` : "No field changes."}
      </p>
    </div>
  );
}
