/**
 * Streamed downloads (CSV / JSON Lines) from async iterators, in constant memory. Re-exported by
 * server/api.ts for route handlers; free of auth imports so scripts and benches use the same code.
 */

/** Download formats of exports: JSON Lines (one JSON object per line) or CSV (RFC 4180, header row). */
export const EXPORT_FORMATS = ["jsonl", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; objects as JSON. A text
 * starting with = + - @ (or a tab / carriage return) gets a leading apostrophe so a spreadsheet
 * shows it instead of evaluating it as a formula (CSV injection).
 */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return "";
  let t = typeof v === "object" ? JSON.stringify(v) : String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/**
 * A download streamed from an async iterator, pulled as the client reads (constant memory): JSON Lines
 * (one object per line), or CSV with a header row of `columns` (default: the first record's keys).
 * The first record is read before the response is made, so a failure to start (database down) is
 * still a JSON error with its status, not a broken download.
 */
export async function exportResponse(records: AsyncIterator<unknown>, opts: { filename: string; format?: ExportFormat; columns?: readonly string[] }): Promise<Response> {
  const format = opts.format ?? "jsonl";
  const encoder = new TextEncoder();
  let next: IteratorResult<unknown> | null = await records.next();
  const columns = opts.columns ?? (next.done ? [] : Object.keys(next.value as object));
  let header = format === "csv" ? `${columns.map(csvField).join(",")}\r\n` : "";
  const line = (v: unknown) => (format === "csv" ? `${columns.map((c) => csvField((v as Record<string, unknown>)[c])).join(",")}\r\n` : `${JSON.stringify(v)}\n`);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let chunk = header;
        header = "";
        // Up to 500 records per chunk: fewer, larger writes.
        for (let i = 0; i < 500; i++) {
          const r: IteratorResult<unknown> = next ?? (await records.next());
          next = null;
          if (r.done) {
            if (chunk) controller.enqueue(encoder.encode(chunk));
            controller.close();
            return;
          }
          chunk += line(r.value);
        }
        controller.enqueue(encoder.encode(chunk));
      } catch (e) {
        // Headers are sent: the download ends short rather than with a JSON error. Logged for the operator.
        console.error(`[api export ${opts.filename}]`, e);
        controller.error(e);
      }
    },
    async cancel() {
      await records.return?.(undefined);
    },
  });
  const type = format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8";
  return new Response(stream, {
    status: 200,
    headers: { "content-type": type, "content-disposition": `attachment; filename="${opts.filename}"`, "cache-control": "no-store" },
  });
}
