import type { ReactNode } from "react";
import * as ui from "./styles";

/**
 * A form's row of actions: its submit button (`busy` while the submit runs, and disabled then), then
 * whatever else the form offers beside it (Cancel, "✓ Saved").
 */
export function SubmitRow({ pending, label, busy, testId, variant = "primary", size, className, children }: { pending: boolean; label: ReactNode; busy: ReactNode; testId: string; variant?: ui.ButtonVariant; size?: "sm"; className?: string; children?: ReactNode }) {
  return (
    <div className={ui.cx(className, "flex flex-wrap items-center gap-2")}>
      <button type="submit" className={size ? ui.button(variant, size) : ui.button(variant)} disabled={pending} data-testid={testId}>
        {pending ? busy : label}
      </button>
      {children}
    </div>
  );
}
