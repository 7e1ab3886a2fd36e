import { describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import type { TestDatabase } from "../db/test-helpers";
import { auditLog } from "../db/schema";
import { as, errorOf, jsonRequest, params, url, useRouteTestDatabase } from "./route-test-helpers";

/** The REST routes of gate policies (app/api/v1/policies), as Next.js calls them, on a real PostgreSQL. */

const list = await import("../app/api/v1/policies/route");
const one = await import("../app/api/v1/policies/[id]/route");

let tdb: TestDatabase;
useRouteTestDatabase(async (t) => {
  tdb = t;
});

const post = (body: unknown) => list.POST(jsonRequest("POST", "/api/v1/policies", body), params({}));
const put = (id: string, body: unknown) => one.PUT(jsonRequest("PUT", `/api/v1/policies/${id}`, body), params({ id }));
const del = (id: string) => one.DELETE(new Request(url(`/api/v1/policies/${id}`), { method: "DELETE" }), params({ id }));
const get = () => list.GET(new Request(url("/api/v1/policies")), params({}));
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const nightly = { definition: "Nightly deploy", gateKind: "agent", groups: ["night-shift"], approvalsRequired: 2, starterMayDecide: false, timeoutMs: 4 * 3600_000, timeoutOutcome: "abort" };

describe("REST /api/v1/policies", () => {
  it("an admin creates, lists, replaces and deletes a policy; each change is in the audit log", async () => {
    as("admin");
    const created = await post(nightly);
    expect(created.status).toBe(201);
    const { policy } = (await created.json()) as { policy: { id: string; scope: string; who: string } };
    expect(policy).toMatchObject({ definition: "Nightly deploy", gateKind: "agent", approvalsRequired: 2, scope: "definition 'Nightly deploy', agent gates", who: "Admins and operators in group night-shift" });

    as("auditor");
    const listed = (await (await get()).json()) as { policies: Array<{ id: string }> };
    expect(listed.policies.map((p) => p.id)).toContain(policy.id);

    as("admin");
    const replaced = await put(policy.id, { ...nightly, approvalsRequired: 3, roles: ["admin"] });
    expect(replaced.status).toBe(200);
    expect(((await replaced.json()) as { policy: { approvalsRequired: number; who: string } }).policy).toMatchObject({ approvalsRequired: 3, who: "Admins in group night-shift" });
    expect((await del(policy.id)).status).toBe(200);
    expect((await del(policy.id)).status).toBe(404);
    const audit = await tdb.db.select().from(auditLog).where(and(eq(auditLog.targetType, "gate_policy"), eq(auditLog.targetId, policy.id))).orderBy(asc(auditLog.id));
    expect(audit.map((a) => [a.action, a.via])).toEqual([
      ["policy.create", "api"],
      ["policy.update", "api"],
      ["policy.delete", "api"],
    ]);
  });

  it("bad input is a 400 naming each field and why", async () => {
    as("admin");
    const res = await post({ definition: "", gateKind: "phase", roles: ["auditor"], approvalsRequired: 0, timeoutMs: 1000, timeoutOutcome: "skip" });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.details?.fieldErrors).toEqual(
      expect.arrayContaining([
        { path: "definition", message: "must name a mission definition, or * for every definition" },
        { path: "roles", message: "auditor cannot decide gates at all (gate.decide is held by admin and operator): a policy can only narrow who decides" },
        { path: "approvalsRequired", message: "must be at least 1" },
        { path: "timeoutMs", message: "must be at least 1 minute" },
      ]),
    );
    expect((await post("{not json")).status).toBe(400);
  });

  it("a second policy for the same scope is a 409; an unknown or malformed id is a 404", async () => {
    as("admin");
    expect((await post({ ...nightly, definition: "Dup" })).status).toBe(201);
    const dup = await post({ ...nightly, definition: "Dup" });
    expect(dup.status).toBe(409);
    expect((await errorOf(dup)).message).toBe("A policy for definition 'Dup', agent gates already exists. Edit that policy instead, or choose another definition or gate kind.");
    expect((await put(UNKNOWN, nightly)).status).toBe(404);
    expect((await put("nope", nightly)).status).toBe(404);
  });

  it("only admins change policies (403 with the reason); everyone who sees gates may read them; signed out is 401", async () => {
    for (const role of ["operator", "reviewer", "contributor", "auditor"] as const) {
      as(role);
      const res = await post({ ...nightly, definition: `by ${role}` });
      expect(res.status, role).toBe(403);
      expect((await errorOf(res)).message).toMatch(/do not allow policy manage: that needs admin/);
      expect((await del(UNKNOWN)).status, role).toBe(403);
      expect((await get()).status, role).toBe(200);
    }
    as();
    expect((await get()).status).toBe(401);
  });
});
