import type { ReactNode } from "react";
import * as ui from "./styles";

export interface Fact {
  label: string;
  value: ReactNode;
  testId?: string;
}

/** Label / value pairs in a row (a mission's dates, an actor's counts): a `<dl>` in the `ui.facts` look. */
export function Facts({ facts, testId }: { facts: Fact[]; testId?: string }) {
  return (
    <dl className={ui.facts} data-testid={testId}>
      {facts.map((f) => (
        <div key={f.label}>
          <dt>{f.label}</dt>
          <dd data-testid={f.testId}>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
