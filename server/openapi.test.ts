import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { api, type Endpoint } from "./api-contract";
import { openApiDocument } from "./openapi";
import { GET as openApiRoute } from "../app/api/v1/openapi.json/route";

const ROOT = path.resolve(__dirname, "..");
const API_DIR = path.join(ROOT, "app/api/v1");

/** Every route file under app/api/v1 with the operations it exports and the contract entry each uses. */
function routeFiles(): Array<{ file: string; path: string; ops: Array<{ method: string; key: string | null }> }> {
  const out: Array<{ file: string; path: string; ops: Array<{ method: string; key: string | null }> }> = [];
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name === "route.ts") {
        const text = fs.readFileSync(p, "utf8");
        const rel = path.relative(path.join(ROOT, "app"), path.dirname(p)).split(path.sep).join("/");
        const ops = [...text.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b(?: = (?:(?:apiRoute(?:<[^>]*>)?|hookRoute)\(api\.(\w+)|memoryExportRoute\("(\w+)"\)))?/g)].map((m) => ({
          method: m[1],
          key: m[2] ?? (m[3] ? `${m[3]}Memory` : null),
        }));
        out.push({ file: path.relative(ROOT, p), path: `/${rel}`.replace(/\[(\w+)\]/g, "{$1}"), ops });
      }
    }
  };
  walk(API_DIR);
  return out;
}

describe("the API contract and its OpenAPI document", () => {
  const files = routeFiles().filter((f) => f.path !== "/api/v1/openapi.json");
  const endpoints = Object.entries(api) as Array<[string, Endpoint]>;

  it("every operation a route file exports takes its name, permission and schemas from the contract entry of its own path and method", () => {
    expect(files.length).toBeGreaterThan(40);
    for (const f of files) {
      for (const op of f.ops) {
        expect(op.key, `${f.file} ${op.method} does not use apiRoute(api.…)`).not.toBeNull();
        const e = api[op.key as keyof typeof api] as Endpoint | undefined;
        expect(e, `${f.file}: api.${op.key} is not in the contract`).toBeDefined();
        expect([e!.method, e!.path], `${f.file} ${op.method} uses api.${op.key}`).toEqual([op.method, f.path]);
      }
    }
  });

  it("every contract entry is served by a route file, and the document has every operation once", () => {
    const served = new Set(files.flatMap((f) => f.ops.map((o) => `${o.method} ${f.path}`)));
    const doc = openApiDocument();
    for (const [key, e] of endpoints) {
      expect(served.has(`${e.method} ${e.path}`), `api.${key}: no route file exports ${e.method} ${e.path}`).toBe(true);
      const op = (doc.paths?.[e.path] as Record<string, { operationId?: string }> | undefined)?.[e.method.toLowerCase()];
      expect(op?.operationId, `${e.method} ${e.path} in the document`).toBe(key);
    }
    const count = Object.values(doc.paths ?? {}).reduce((n, item) => n + Object.keys(item as object).length, 0);
    expect(count).toBe(endpoints.length);
  });

  it("request schemas are the validators': the gate decision's enum, a query's bounds and the mission definition's fields appear as the handlers enforce them", () => {
    const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }> }>> };
    const decision = doc.paths["/api/v1/gates/{id}/decision"].post.requestBody!.content["application/json"].schema as { properties: { decision: { enum: string[] } } };
    expect(decision.properties.decision.enum).toEqual(expect.arrayContaining(["retry", "skip", "abort", "approve"]));
    const limit = doc.paths["/api/v1/missions/{id}/events"].get.parameters!.find((p) => p.name === "limit")!;
    expect(limit).toMatchObject({ in: "query", schema: { maximum: 10_000, minimum: 1, default: 1000 } });
    expect(JSON.stringify(doc.paths["/api/v1/missions"].post.requestBody)).toContain("allowedBinaries");
  });

  it("the bulk decision's request and response schemas are in the document: items of gateId or proposalId (at most 200), the decision enum, one result per item", () => {
    const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> }>> };
    const op = doc.paths["/api/v1/gates/bulk-decision"].post;
    const body = op.requestBody!.content["application/json"].schema as { properties: { items: { maxItems: number; minItems: number; items: { anyOf: Array<{ required: string[] }> } }; decision: { enum: string[] } }; required: string[] };
    expect(body.properties.items).toMatchObject({ minItems: 1, maxItems: 200 });
    expect(body.properties.items.items.anyOf.map((b) => b.required)).toEqual([["gateId"], ["proposalId"]]);
    expect(body.properties.decision.enum).toEqual(expect.arrayContaining(["approve", "reject", "abort", "retry", "skip"]));
    expect(body.required).toEqual(expect.arrayContaining(["items", "decision"]));
    const response = JSON.stringify(op.responses["200"].content!["application/json"].schema);
    expect(response).toContain("BulkDecisionResults");
    const results = JSON.stringify((doc as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas.BulkDecisionResults);
    for (const field of ["results", "approval_recorded", "unprocessable", "message"]) expect(results).toContain(field);
  });

  it("GET /api/v1/openapi.json answers the document as JSON (OpenAPI 3.1)", async () => {
    const res = openApiRoute();
    expect(res.status).toBe(200);
    const body = (await res.json()) as { openapi: string; info: { title: string }; paths: Record<string, unknown> };
    expect(body.openapi).toBe("3.1.0");
    expect(body.info.title).toBe("Faultline API");
    expect(Object.keys(body.paths)).toContain("/api/v1/proposals/{id}/decision");
  });
});
