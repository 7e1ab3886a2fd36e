import type { ReactNode } from "react";
import * as ui from "@/components/ui/styles";

/**
 * A chart as people and screen readers read it: a titled figure whose picture has an aria-label stating
 * the numbers, and the numbers themselves as a table under "Numbers".
 */
export function Figure({ id, title, summary, children, table }: { id: string; title: string; summary: string; children: ReactNode; table: ReactNode }) {
  return (
    <figure className={ui.cx(ui.card, "hc-figure")} aria-labelledby={`${id}-title`} data-testid={id}>
      <figcaption id={`${id}-title`} className="hc-title">
        {title}
      </figcaption>
      <div role="img" aria-label={`${title}: ${summary}`}>
        {children}
      </div>
      <details className="hc-numbers">
        <summary>Numbers</summary>
        <div className="table-wrap">{table}</div>
      </details>
    </figure>
  );
}
