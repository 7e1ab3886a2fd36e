import type { ReactNode } from "react";
import * as ui from "@/components/ui/styles";

/** A column of a figure's numbers: its header, and whether it holds numbers (right-aligned). */
export type NumbersColumn = string | { label: string; numeric: true };

/** The numbers behind a chart: one row a bucket; its first cell names the row. */
export interface Numbers {
  columns: readonly NumbersColumn[];
  rows: ReadonlyArray<{ key: string; cells: readonly ReactNode[] }>;
}

const NUM = "text-right tabular-nums";
const label = (c: NumbersColumn) => (typeof c === "string" ? c : c.label);
const numeric = (c: NumbersColumn | undefined) => typeof c === "object" && c.numeric;

/** The numbers as a table: what a screen reader or a person who wants the figures reads. */
function NumbersTable({ numbers }: { numbers: Numbers }) {
  const { columns, rows } = numbers;
  return (
    <table className={ui.table("sm")}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={label(c)} scope="col" className={numeric(c) ? NUM : undefined}>
              {label(c)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            {r.cells.map((cell, i) =>
              i === 0 ? (
                <th key={i} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={i} className={numeric(columns[i]) ? NUM : undefined}>
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A chart as people and screen readers read it: a titled figure whose picture has an aria-label stating
 * the numbers, and the numbers themselves as a table under "Numbers" (`numbers`, or a `table` of its own).
 */
export function Figure({ id, title, summary, children, numbers, table }: { id: string; title: string; summary: string; children: ReactNode; numbers?: Numbers; table?: ReactNode }) {
  return (
    <figure className={ui.cx(ui.card, "m-0 flex flex-col gap-2 px-3.5 py-3")} aria-labelledby={`${id}-title`} data-testid={id}>
      <figcaption id={`${id}-title`} className="text-[13.5px] font-semibold">
        {title}
      </figcaption>
      <div role="img" aria-label={`${title}: ${summary}`}>
        {children}
      </div>
      <details className="[&>summary]:cursor-pointer [&>summary]:text-sm [&>summary]:text-muted">
        <summary>Numbers</summary>
        <div className={ui.tableWrap}>{numbers ? <NumbersTable numbers={numbers} /> : table}</div>
      </details>
    </figure>
  );
}
