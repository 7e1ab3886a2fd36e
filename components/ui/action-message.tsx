import * as ui from "./styles";

export interface ActionOutcome {
  ok: boolean;
  text: string;
  /** The fields the server refused, "path: message" each. */
  fields?: string[];
}

/** What an action answered: "✓ …" in a polite live region, or "✕ …" as an alert with the refused fields under it; `sm` in small print. */
export function ActionMessage({ outcome, testId, errorTestId, size }: { outcome: ActionOutcome | null; testId: string; errorTestId: string; size?: "sm" }) {
  const small = size === "sm" && "text-sm";
  return (
    <>
      <div aria-live="polite" role="status">
        {outcome?.ok ? (
          <p className={ui.cx(ui.result.ok, small)} data-testid={testId}>
            ✓ {outcome.text}
          </p>
        ) : null}
      </div>
      {outcome && !outcome.ok ? (
        <div className={ui.cx(ui.result.error, small)} role="alert" data-testid={errorTestId}>
          ✕ {outcome.text}
          {outcome.fields?.length ? (
            <ul className={ui.fieldErrors}>
              {outcome.fields.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
