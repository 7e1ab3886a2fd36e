import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { params, signedInAs, url, useRouteTestDatabase, errorOf } from "./route-test-helpers";
import { GET } from "@/app/api/v1/missions/[id]/trace/route";
import { createMission } from "@/db/queries/events";
import { ensureActor, upsertUser } from "@/db/queries/users";
import { auditLog } from "@/db/schema";
import { missionDefinitionSchema } from "@/lib/mission";
import type { Principal } from "@/lib/auth/roles";
import { splitLines, verifyTrace } from "@/lib/trace/verify";
import type { TestDatabase } from "@/db/test-helpers";

/** GET /api/v1/missions/:id/trace: the trace as a download an auditor may take; audited (permissions: server/permission-matrix.test.ts). */
let db: TestDatabase["db"];
let auditor: Principal;
let missionId: string;
useRouteTestDatabase(async (tdb) => {
  db = tdb.db;
  const u = await upsertUser(db, { email: "auditor@trace.test", name: "Audrey Auditor", passwordHash: "x", roles: ["auditor"] });
  auditor = { id: u.id, name: u.name, email: u.email, roles: ["auditor"] };
  const definition = missionDefinitionSchema.parse({ name: "traced", objective: "o", phases: [{ name: "EXECUTION", agents: [{ name: "a", priority: "critical", steps: [{ tool: "file", args: { op: "read", path: "x" } }] }] }] });
  await ensureActor(db, { id: "system:seed", kind: "system", displayName: "seed" });
  missionId = (await createMission(db, { definition, actorId: "system:seed" })).id;
});

describe("GET /api/v1/missions/:id/trace", () => {
  it("answers the mission's trace as a JSON Lines download that verifies, and records the download in the audit log", async () => {
    signedInAs(auditor);
    const res = await GET(new Request(url(`/api/v1/missions/${missionId}/trace`)), params({ id: missionId }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/x-ndjson/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="mission-${missionId}.trace.jsonl"`);
    const v = verifyTrace(splitLines(await res.text()));
    expect(v.ok).toBe(true);
    if (v.ok) expect(v.trace.events.map((e) => e.type)).toEqual(["mission.created"]);
    const rows = await db.select().from(auditLog).where(eq(auditLog.action, "trace.export"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: `user:${auditor.id}`, missionId });
  });

  it("404 for a mission that does not exist, saying so", async () => {
    signedInAs(auditor);
    const id = "00000000-0000-4000-8000-000000000000";
    const res = await GET(new Request(url(`/api/v1/missions/${id}/trace`)), params({ id }));
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toBe(`Mission ${id} does not exist.`);
  });
});
