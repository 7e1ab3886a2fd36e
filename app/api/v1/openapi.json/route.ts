import { openApiDocument } from "@/server/openapi";

export const dynamic = "force-static";

/**
 * GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API, generated from the zod schemas the
 * handlers validate with (server/api-contract.ts). Public on purpose, like any API's reference: it
 * describes operations, never data, and every operation it lists checks its own permission.
 */
export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
