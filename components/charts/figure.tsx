import type { ReactNode } from "react";
import * as ui from "@/components/ui/styles";

/**
 * A chart as people and screen readers read it: a titled figure whose picture has an aria-label stating
 * the numbers, and the numbers themselves as a table under "Numbers".
 */
export function Figure({ id, title, summary, children, table }: { id: string; title: string; summary: string; children: ReactNode; table: ReactNode }) {
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
        <div className={ui.tableWrap}>{table}</div>
      </details>
    </figure>
  );
}
