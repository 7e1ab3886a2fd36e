import { FIELD_LABELS } from "./form-model";
import * as ui from "@/components/ui/styles";

/** Labels in a narrow first column; before | after side by side, top-aligned, in the body font; a changed row is marked on its left, an unchanged long value scrolls. */
const DIFF =
  "[&_th[scope=row]]:w-[180px] [&_th[scope=row]]:align-top [&_th[scope=row]]:font-[550] [&_tbody_td]:w-[40%] [&_tbody_td]:align-top [&_pre]:font-sans [&_pre]:text-[13px] [&_tr[data-changed=true]>th]:border-l-[3px] [&_tr[data-changed=true]>th]:border-l-partial [&_tr[data-changed=false]_pre]:max-h-[7.5em] [&_tr[data-changed=false]_pre]:overflow-auto";

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
    <div className={ui.tableWrap}>
      <table className={ui.cx(ui.table(), DIFF)} data-testid="diff-table">
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
              <tr key={f} data-testid="diff-row" data-field={f} data-changed={isChanged ? "true" : "false"}>
                <th scope="row">
                  {labels[f]}
                  {isChanged ? <span className="whitespace-nowrap text-[12px] text-partial"> ● changed</span> : null}
                </th>
                <td className={isChanged ? "bg-failed-bg" : undefined}>
                  <pre>{show(before[f]) || "—"}</pre>
                </td>
                <td className={isChanged ? "bg-success-bg" : undefined}>
                  <pre>{show(after[f]) || "—"}</pre>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="m-0 px-3 py-1.5 text-sm text-muted" data-testid="diff-summary">
        {changed.length ? `${changed.length} field${changed.length === 1 ? "" : "s"} changed: ${changed.map((f) => labels[f]).join(", ")}.` : "No field changes."}
      </p>
    </div>
  );
}
