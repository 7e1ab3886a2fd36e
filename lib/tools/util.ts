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


/** All `code`s along an error's cause chain (including AggregateError members), outermost first. */
export function errorCodes(err: unknown, depth = 0): string[] {
  if (typeof err !== "object" || err === null || depth > 8) return [];
  const own = errnoOf(err);
  const members = err instanceof AggregateError ? err.errors.flatMap((e) => errorCodes(e, depth + 1)) : [];
  return [...(own ? [own] : []), ...members, ...errorCodes((err as { cause?: unknown }).cause, depth + 1)];
}

/** The innermost message of an error's cause chain: "fetch failed" says less than "bad port". */
export function rootMessage(err: unknown): string {
  let current: unknown = err;
  for (let i = 0; i < 8 && current instanceof Error && current.cause instanceof Error; i++) current = current.cause;
  return errorMessage(current);
}

/** True for an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

export type BodyRead = { text: string; bytes: number; tooLarge: boolean };

/** Read a response body as UTF-8, stopping (and cancelling the stream) once it exceeds `maxBytes`. */
export async function readBodyCapped(res: Response, maxBytes: number): Promise<BodyRead> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    return { text: "", bytes: declared, tooLarge: true };
  }
  if (!res.body) return { text: "", bytes: 0, tooLarge: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - bytes;
    chunks.push(value.length > room ? value.subarray(0, Math.max(0, room)) : value);
    bytes += value.length;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      return { text: Buffer.concat(chunks).toString("utf8"), bytes, tooLarge: true };
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8"), bytes, tooLarge: false };
}
