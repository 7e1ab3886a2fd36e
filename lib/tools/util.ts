/** Small helpers shared by the built-in tools. */

/** The errno name (`code`) of a Node error, if any. */
export function errnoOf(err: unknown): string | undefined {
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Why an AbortSignal fired, as text ("lease lost"), if it carries a reason. */
export function abortReason(signal: AbortSignal): string | undefined {
  const reason: unknown = signal.reason;
  return reason === undefined ? undefined : errorMessage(reason);
}

