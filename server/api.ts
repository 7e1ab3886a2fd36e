import { z } from "zod";
import { personActor, type AuditActor } from "@/lib/audit";
import type { Action, Principal } from "@/lib/auth/roles";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { AppError, isAppError, toErrorBody } from "@/lib/errors";
import { getPrincipal } from "./auth";
import { zodFieldErrors } from "./action-result";

/**
 * Route handler plumbing for app/api/v1: authorize with `can` (401 JSON without a session, 403 JSON
 * naming the missing permission), run the handler, map every error through `toErrorBody`.
 */
export function apiRoute<P extends Record<string, string | string[]>>(
  opts: { permission: Action; name: string },
  handler: (ctx: { req: Request; user: Principal; actor: AuditActor; params: P }) => Promise<Response>,
): (req: Request, ctx: { params: Promise<P> }) => Promise<Response> {
  return async (req, ctx) => {
    try {
      const user = await getPrincipal();
      if (!user) throw new AppError("unauthorized", { userMessage: describeMissingPermission(null, opts.permission) });
      if (!can(user, opts.permission)) throw new AppError("forbidden", { userMessage: describeMissingPermission(user, opts.permission) });
      return await handler({ req, user, actor: personActor(user, "api", req.headers), params: await ctx.params });
    } catch (e) {
      if (!isAppError(e) || e.status >= 500) console.error(`[api ${opts.name}]`, e);
      const { status, body } = toErrorBody(e);
      return Response.json(body, { status });
    }
  };
}

/** Reads a JSON body: malformed JSON is a 400 with the parser's reason, never a 500. */
export async function readJson(req: Request): Promise<unknown> {
  const text = await req.text();
  if (!text.trim()) throw new AppError("bad_request", { userMessage: "The request body is empty: send a JSON object." });
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("bad_request", { userMessage: `The request body is not valid JSON: ${e instanceof Error ? e.message : String(e)}.` });
  }
}

/** Parses with zod; failures are a 400 listing each field. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const fieldErrors = zodFieldErrors(r.error);
  throw new AppError("bad_request", {
    userMessage: `The ${what} is not valid: ${fieldErrors.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join("; ")}.`,
    details: { fieldErrors },
  });
}

export const idSchema = z.guid();

/** A malformed id names nothing: 404, like an id that does not exist. */
export function parseIdOr404(id: string, what: "Mission" | "Gate" | "Pattern"): string {
  if (!idSchema.safeParse(id).success) throw new AppError("not_found", { userMessage: `${what} ${id} does not exist.` });
  return id;
}

const controlSchema = z.object({ note: z.string().trim().max(2000, "must be at most 2000 characters").nullish() });

/** The optional body of pause/resume: `{ note }`; an empty body is fine. */
export async function controlBody(req: Request): Promise<{ note: string | null }> {
  const text = await req.clone().text();
  if (!text.trim()) return { note: null };
  const { note } = parseOr400(controlSchema, await readJson(req), "request body");
  return { note: note ?? null };
}

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

/** A JSON Lines download (see exportResponse). */
export function ndjsonResponse(records: AsyncIterator<unknown>, filename: string): Promise<Response> {
  return exportResponse(records, { filename, format: "jsonl" });
}
