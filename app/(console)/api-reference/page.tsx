import type { Metadata } from "next";
import { api, type Endpoint } from "@/server/api-contract";
import { openApiDocument } from "@/server/openapi";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "API reference" };

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** One line for a parameter's schema: its type, allowed values, bounds and default. */
function describeSchema(s: Record<string, unknown> | undefined): string {
  if (!s) return "";
  const parts: string[] = [];
  if (Array.isArray(s.enum)) parts.push((s.enum as unknown[]).join(" | "));
  else if (typeof s.type === "string") parts.push(s.format ? `${s.type} (${String(s.format)})` : s.type);
  else if (Array.isArray(s.anyOf)) parts.push((s.anyOf as Array<Record<string, unknown>>).map((x) => (Array.isArray(x.enum) ? (x.enum as unknown[]).join(" | ") : String(x.type ?? "…"))).join(" or "));
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? "…"}–${s.maximum ?? "…"}`);
  if (s.maxLength !== undefined) parts.push(`at most ${String(s.maxLength)} characters`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(", ");
}

/** Text whose `backticked` parts are code, as the contract writes them. */
function withCode(text: string) {
  return text.split("`").map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

/**
 * The REST API's reference, rendered from /api/v1/openapi.json (the document the contract generates),
 * grouped by tag: method, path, what it needs, its parameters and the JSON schema of its body. Rendered
 * here rather than with Swagger UI or Redoc: both are megabytes of client code, neither supports
 * React 19 cleanly, and the console's pages must pass axe in both themes.
 */
export default consolePage({ path: "/api-reference", permission: "mission.view" }, async () => {
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };
  // Schemas registered as components (Run, DecisionRecord, …) are shown in full where they are used, not as
  // $refs (a reference back to one already being shown stays a $ref).
  const resolve = (schema: unknown, open: ReadonlySet<string> = new Set()): unknown => {
    if (Array.isArray(schema)) return schema.map((x) => resolve(x, open));
    if (!schema || typeof schema !== "object") return schema;
    const ref = (schema as { $ref?: string }).$ref;
    const name = ref?.replace("#/components/schemas/", "");
    if (name && !open.has(name) && doc.components?.schemas?.[name]) return resolve(doc.components.schemas[name], new Set([...open, name]));
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, resolve(v, open)]));
  };
  const endpoints = Object.entries(api) as Array<[string, Endpoint]>;
  const tags = [...new Set(endpoints.map(([, e]) => e.tag))];
  return (
    <Page
      title="API reference"
      intro={
        <>
          Every <code>/api/v1</code> operation, generated from the schemas the server validates requests with. Authenticate with <code>Authorization: Bearer flt_…</code> (create a token under{" "}
          <a className="text-link underline underline-offset-2" href="/account/tokens">
            Account → API tokens
          </a>
          ); the token acts with your roles. Errors are <code>{"{ error: { code, message, details? } }"}</code>; invalid input is a 400 naming each field. The machine-readable document:{" "}
          <a className="text-link underline underline-offset-2" href="/api/v1/openapi.json" data-testid="openapi-link">
            /api/v1/openapi.json
          </a>{" "}
          (OpenAPI 3.1).
        </>
      }
    >
      <nav aria-label="API sections">
        <ul className="m-0 flex list-none flex-wrap items-center gap-x-3 gap-y-1 p-0">
          {tags.map((t) => (
            <li key={t}>
              <a className="text-link underline underline-offset-2" href={`#tag-${t.replace(/\W+/g, "-").toLowerCase()}`}>
                {t}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <section key={tag} className="grid gap-2" aria-labelledby={`tag-${tag.replace(/\W+/g, "-").toLowerCase()}`}>
          <h2 id={`tag-${tag.replace(/\W+/g, "-").toLowerCase()}`} className="text-[15px] font-[650]">
            {tag}
          </h2>
          {endpoints
            .filter(([, e]) => e.tag === tag)
            .map(([key, e]) => {
              const op = doc.paths[e.path]?.[e.method.toLowerCase()];
              const body = op?.requestBody ? Object.entries(op.requestBody.content) : [];
              const answer = Object.entries(op?.responses?.[String(e.ok.status)]?.content ?? {}).filter(([, media]) => media.schema);
              return (
                <article key={key} className={ui.cx(ui.card, "grid content-start gap-2 px-4 py-3.5")} data-testid="api-operation" data-operation={key} id={key}>
                  <h3 className="flex flex-wrap items-center gap-2">
                    <span className={ui.badge("neutral")}>{e.method}</span> <code>{e.path}</code>
                  </h3>
                  <p>{withCode(e.summary)}</p>
                  {e.description ? <p className="text-muted text-sm">{withCode(e.description)}</p> : null}
                  <p className="text-sm">
                    Needs <code>{e.permission}</code>. Answers {e.ok.status}: {withCode(e.ok.description)}.
                  </p>
                  {op?.parameters?.length ? (
                    <div className={ui.tableWrap}>
                      <table className={ui.table()}>
                        <caption className="sr-only">Parameters of {e.method} {e.path}</caption>
                        <thead>
                          <tr>
                            <th scope="col">Parameter</th>
                            <th scope="col">In</th>
                            <th scope="col">Values</th>
                          </tr>
                        </thead>
                        <tbody>
                          {op.parameters.map((p) => (
                            <tr key={`${p.in}-${p.name}`}>
                              <td>
                                <code>{p.name}</code>
                                {p.required ? " (required)" : ""}
                              </td>
                              <td>{p.in}</td>
                              <td className="text-sm">{[describeSchema(p.schema), p.description].filter(Boolean).join(" — ")}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  ) : null}
                  {body.map(([type, media]) => (
                    <details key={type}>
                      <summary>Request body ({type})</summary>
                      <pre className="font-mono text-sm leading-normal">{JSON.stringify(resolve(media.schema ?? { type: "string" }), null, 2)}</pre>
                    </details>
                  ))}
                  {answer.map(([type, media]) => (
                    <details key={`response-${type}`}>
                      <summary>
                        Response body {e.ok.status} ({type})
                      </summary>
                      <pre className="font-mono text-sm leading-normal">{JSON.stringify(resolve(media.schema), null, 2)}</pre>
                    </details>
                  ))}
                </article>
              );
            })}
        </section>
      ))}
    </Page>
  );
});
