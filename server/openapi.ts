import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { PERMISSIONS } from "@/lib/auth/roles";
import { api, type Endpoint } from "./api-contract";

/** The error body every failure carries (lib/errors.ts toErrorBody). */
const errorBody = z
  .object({
    error: z.object({
      code: z.enum(["bad_request", "unauthorized", "forbidden", "not_found", "conflict", "unprocessable", "unavailable", "internal"]),
      message: z.string().meta({ description: "What happened, why, and what to do" }),
      details: z.record(z.string(), z.unknown()).optional().meta({ description: "`fieldErrors: [{ path, message }]` for invalid input" }),
    }),
  })
  .meta({ id: "Error" });

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: errorBody } } });

function operation(e: Endpoint): ZodOpenApiOperationObject {
  const op: ZodOpenApiOperationObject = {
    operationId: Object.entries(api).find(([, v]) => v === e)?.[0],
    tags: [e.tag],
    summary: e.summary,
    description: [e.description, `Needs the permission \`${e.permission}\` (roles: ${PERMISSIONS[e.permission].join(", ")}).`].filter(Boolean).join("\n\n"),
    responses: {
      [String(e.ok.status)]: e.ok.status === 204 ? { description: e.ok.description } : { description: e.ok.description, content: { [e.ok.mediaType ?? "application/json"]: e.ok.schema ? { schema: e.ok.schema } : {} } },
      "400": errorResponse("The request is not valid: the message names each field (`details.fieldErrors`)"),
      "401": errorResponse("Not signed in: send `Authorization: Bearer <token>` (Account → API tokens) or a console session"),
      "403": errorResponse("Signed in without the permission this operation needs"),
      ...(e.params ? { "404": errorResponse("What the path names does not exist") } : {}),
      "500": errorResponse("An internal error (logged; the message never carries a stack trace)"),
    },
  };
  if (e.params || e.query) op.requestParams = { ...(e.params ? { path: e.params } : {}), ...(e.query ? { query: e.query } : {}) };
  if (e.body) op.requestBody = { required: true, content: { "application/json": { schema: e.body } } };
  else if (e.bodyMediaTypes) op.requestBody = { required: true, content: Object.fromEntries(e.bodyMediaTypes.map((t) => [t, { schema: { type: "string" } }])) };
  return op;
}

let cached: ReturnType<typeof createDocument> | null = null;

/**
 * The OpenAPI 3.1 document of `/api/v1`, generated from the contract (server/api-contract.ts): the same
 * zod schemas the route handlers validate with. Built once per process.
 */
export function openApiDocument(): ReturnType<typeof createDocument> {
  if (cached) return cached;
  const paths: ZodOpenApiPathsObject = {};
  for (const e of Object.values(api) as Endpoint[]) {
    const item = (paths[e.path] ??= {}) as Record<string, ZodOpenApiOperationObject>;
    item[e.method.toLowerCase()] = operation(e);
  }
  cached = createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Faultline API",
        version: "1",
        description:
          "The control plane for agent missions that fail. Every request needs a signed-in console session or an API token (`Authorization: Bearer flt_…`, made under Account → API tokens) of a user with the operation's permission. Errors are JSON `{ error: { code, message, details? } }`; invalid input is a 400 naming each field, never a 500.",
      },
      servers: [{ url: "/", description: "This Faultline" }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API token (flt_…)" }, session: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "A console session" } } },
      security: [{ bearer: [] }, { session: [] }],
      paths,
    },
  );
  return cached;
}
