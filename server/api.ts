import { z } from "zod";
import { personActor, type AuditActor } from "@/lib/audit";
import type { Action, Principal } from "@/lib/auth/roles";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { AppError, isAppError, toErrorBody } from "@/lib/errors";
import { getPrincipal } from "./auth";
import { zodFieldErrors } from "./action-result";
import { exportResponse } from "./export-stream";
import { controlSchema } from "./api-contract";

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
export function parseIdOr404(id: string, what: "Mission" | "Gate" | "Pattern" | "Proposal"): string {
  if (!idSchema.safeParse(id).success) throw new AppError("not_found", { userMessage: `${what} ${id} does not exist.` });
  return id;
}

/** The optional body of pause/resume: `{ note }`; an empty body is fine. */
export async function controlBody(req: Request): Promise<{ note: string | null }> {
  const text = await req.clone().text();
  if (!text.trim()) return { note: null };
  const { note } = parseOr400(controlSchema, await readJson(req), "request body");
  return { note: note ?? null };
}

// Streamed downloads live in ./export-stream (no auth imports, so scripts and benches can use them too).
export { csvField, exportResponse, EXPORT_FORMATS, type ExportFormat } from "./export-stream";

/** A JSON Lines download (see exportResponse). */
export function ndjsonResponse(records: AsyncIterator<unknown>, filename: string): Promise<Response> {
  return exportResponse(records, { filename, format: "jsonl" });
}
