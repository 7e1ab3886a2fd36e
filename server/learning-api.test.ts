import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { TestDatabase } from "../db/test-helpers";
import { createMission } from "../db/queries/events";
import { ensureActor } from "../db/queries/users";
import { episodicMemory, learnedPatterns, missions, sessionMemory } from "../db/schema";
import { missionDefinitionSchema } from "../lib/mission";
import { as, errorOf, jsonRequest, params, url, useRouteTestDatabase } from "./route-test-helpers";

/**
 * The REST routes of ADR-0003 (app/api/v1/patterns, app/api/v1/memory), called as Next.js calls them:
 * the exported handler with a Request and its params, on a real PostgreSQL. Only the session lookup is
 * replaced (next-auth needs a request context); authorization is still `can()` in every handler.
 */

const patterns = await import("../app/api/v1/patterns/route");
const pattern = await import("../app/api/v1/patterns/[id]/route");
const sessionExport = await import("../app/api/v1/memory/session/route");
const episodicExport = await import("../app/api/v1/memory/episodic/route");

let tdb: TestDatabase;
let missionA: string;
let missionB: string;
let patternId: string;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

const patch = (id: string, body: unknown) => pattern.PATCH(jsonRequest("PATCH", `/api/v1/patterns/${id}`, body), params({ id }));
const del = (id: string) => pattern.DELETE(new Request(url(`/api/v1/patterns/${id}`), { method: "DELETE" }), params({ id }));
const exportOf = (kind: "session" | "episodic", query = "") => (kind === "session" ? sessionExport : episodicExport).GET(new Request(url(`/api/v1/memory/${kind}${query}`)), params({}));
const lines = async (res: Response) => (await res.text()).split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

useRouteTestDatabase(async (t) => {
  tdb = t;
  await ensureActor(tdb.db, { id: "user:op", kind: "user", displayName: "Olivia Operator" });
  const def = missionDefinitionSchema.parse({ name: "memory", objective: "x", phases: [{ name: "EXECUTION", agents: [{ name: "fetch", priority: "critical", steps: [{ tool: "http", args: { url: "http://127.0.0.1:9/" } }] }] }] });
  missionA = (await createMission(tdb.db, { definition: def, actorId: "user:op" })).id;
  missionB = (await createMission(tdb.db, { definition: def, actorId: "user:op" })).id;
  await tdb.db.update(missions).set({ runState: "failed" }); // nothing runs in this file
  const [p] = await tdb.db
    .insert(learnedPatterns)
    .values({ when: "127_0_0_1_8080_rate_limit", then: "wait_and_retry_after", errorType: "rate_limited", tools: ["shell", "http"], successes: 1, failures: 0, confidence: 0.67 })
    .returning();
  patternId = p.id;
  await tdb.db.insert(learnedPatterns).values({ when: "git_missing_binary", then: "install_missing_dependency", errorType: "command_not_found", successes: 0, failures: 1, confidence: 0.33 });
  const base = Date.parse("2030-01-01T00:00:00.000Z");
  const session = (mission: string, i: number) => ({
    id: `diag_${mission.slice(0, 8)}_${String(i).padStart(5, "0")}`,
    missionId: mission,
    agent: "fetch",
    step: 0,
    attempt: 1,
    createdAt: new Date(base + (i % 5) * 1000).toISOString(),
    failureDiagnosis: { immediate_cause: "HTTP 429", root_cause: "rate_limit", why_chain: ["a", "b", "c", "d", "e"], recovery_attempted: [{ strategy: "wait_and_retry_after", outcome: "success" as const, iterations_to_success: 2 }] },
    learnedPattern: { when: "127_0_0_1_8080_rate_limit", then: "wait_and_retry_after", confidence: 0.67 },
  });
  const rows = [...Array.from({ length: 1100 }, (_, i) => session(missionA, i)), ...Array.from({ length: 3 }, (_, i) => session(missionB, i))];
  for (let i = 0; i < rows.length; i += 500) await tdb.db.insert(sessionMemory).values(rows.slice(i, i + 500));
  await tdb.db.insert(episodicMemory).values(
    [missionA, missionA, missionB].map((m, i) => ({
      missionId: m,
      createdAt: new Date(base + i).toISOString(),
      errorEncountered: { type: "rate_limited", tool: "http", diagnosis: "The service is rate limiting", root_cause: "127_0_0_1_8080_rate_limit" },
      successfulRecovery: { strategy: "wait_and_retry_after", tools: ["shell", "http"], iterations_to_success: 2, confidence: 0.67 },
      reusablePattern: { trigger: "127_0_0_1_8080_rate_limit", action: "wait_and_retry_after", success_rate: 0.67 },
    })),
  );
});

describe("GET /api/v1/patterns", () => {
  it("lists the patterns for anyone who may view missions; 401 without a session", async () => {
    as();
    const anon = await patterns.GET(new Request(url("/api/v1/patterns")), params({}));
    expect(anon.status).toBe(401);
    expect((await errorOf(anon)).message).toMatch(/not signed in/);
    as("reviewer");
    const res = await patterns.GET(new Request(url("/api/v1/patterns")), params({}));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { patterns: Array<Record<string, unknown>> };
    expect(body.patterns).toHaveLength(2);
    expect(body.patterns.find((p) => p.id === patternId)).toMatchObject({ when: "127_0_0_1_8080_rate_limit", then: "wait_and_retry_after", successes: 1, failures: 0, confidence: 0.67, threshold: 0.8, enabled: true });
    for (const p of body.patterns) expect(new Date(p.updatedAt as string).toISOString()).toBe(p.updatedAt);
  });
});

describe("PATCH and DELETE /api/v1/patterns/:id", () => {
  it("needs pattern.manage (admin): operators and auditors get 403 naming it", async () => {
    for (const role of ["operator", "auditor", "reviewer"] as const) {
      as(role);
      const res = await patch(patternId, { enabled: false });
      expect(res.status, role).toBe(403);
      expect((await errorOf(res)).message).toMatch(/pattern manage: that needs admin/);
      expect((await del(patternId)).status).toBe(403);
    }
    const [row] = await tdb.db.select().from(learnedPatterns).where(eq(learnedPatterns.id, patternId));
    expect(row.enabled).toBe(true);
  });

  it("an admin disables, enables and re-thresholds a pattern; the row is returned", async () => {
    as("admin");
    const off = await patch(patternId, { enabled: false });
    expect(off.status).toBe(200);
    expect(((await off.json()) as { pattern: unknown }).pattern).toMatchObject({ id: patternId, enabled: false, threshold: 0.8 });
    const both = await patch(patternId, { enabled: true, threshold: 0.6 });
    expect(((await both.json()) as { pattern: unknown }).pattern).toMatchObject({ enabled: true, threshold: 0.6, successes: 1 });
    const [row] = await tdb.db.select().from(learnedPatterns).where(eq(learnedPatterns.id, patternId));
    expect(row).toMatchObject({ enabled: true, threshold: 0.6 });
  });

  it("bad input is a 400 that says what to fix; an unknown or malformed id is a 404; never a 500", async () => {
    as("admin");
    const cases: Array<[unknown, RegExp]> = [
      [{ threshold: 0.3 }, /threshold: must be at least 0\.5/],
      [{ threshold: 1.5 }, /threshold: must be at most 1/],
      [{ threshold: "high" }, /threshold: must be a number/],
      [{ enabled: "yes" }, /enabled: must be true or false/],
      [{}, /give enabled \(true or false\) and\/or threshold/],
      [{ enabled: true, successes: 99 }, /only enabled and threshold can be changed \(got successes\)/],
      [[true], /must be a JSON object/],
      ["{not json", /not valid JSON/],
      ["", /body is empty/],
    ];
    for (const [body, message] of cases) {
      const res = await patch(patternId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(res)).message).toMatch(message);
    }
    const unknown = await patch(UNKNOWN, { enabled: false });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toMatch(/Pattern 0{8}-.* does not exist/);
    expect((await patch("not-a-uuid", { enabled: false })).status).toBe(404);
    expect((await del("not-a-uuid")).status).toBe(404);
  });

  it("DELETE answers 204, and 404 once it is gone", async () => {
    as("admin");
    const [extra] = await tdb.db.insert(learnedPatterns).values({ when: "x_timeout", then: "increase_timeout", errorType: "timeout", confidence: 0.5 }).returning();
    const res = await del(extra.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await tdb.db.select().from(learnedPatterns).where(eq(learnedPatterns.id, extra.id))).toEqual([]);
    const again = await del(extra.id);
    expect(again.status).toBe(404);
    expect((await errorOf(again)).message).toMatch(/deleted already/);
  });
});

describe("GET /api/v1/memory/session and /episodic", () => {
  it("streams JSON Lines as a download for admins, operators and auditors; others get 403", async () => {
    for (const role of ["admin", "operator", "auditor"] as const) {
      as(role);
      const res = await exportOf("episodic");
      expect(res.status, role).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="episodic_memory.jsonl"');
      expect(await lines(res)).toHaveLength(3);
    }
    for (const role of ["reviewer", "contributor"] as const) {
      as(role);
      const res = await exportOf("session");
      expect(res.status).toBe(403);
      expect((await errorOf(res)).message).toMatch(/memory export: that needs admin or operator or auditor/);
    }
    as();
    expect((await exportOf("session")).status).toBe(401);
  });

  it("session records carry the ADR's fields, oldest first, all of them across pages", async () => {
    as("auditor");
    const res = await exportOf("session");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="session_memory.jsonl"');
    const text = await res.clone().text();
    expect(text.endsWith("\n")).toBe(true);
    const all = await lines(res);
    expect(all).toHaveLength(1103);
    expect(new Set(all.map((r) => r.id)).size).toBe(1103);
    expect(all[0]).toMatchObject({
      conv_id: expect.any(String),
      failure_diagnosis: { immediate_cause: "HTTP 429", root_cause: "rate_limit", why_chain: ["a", "b", "c", "d", "e"], recovery_attempted: [{ strategy: "wait_and_retry_after", outcome: "success", iterations_to_success: 2 }] },
      learned_pattern: { when: "127_0_0_1_8080_rate_limit", then: "wait_and_retry_after", confidence: 0.67 },
    });
    const times = all.map((r) => Date.parse(r.ts as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("?missionId= filters; a malformed one is a 400, an unknown one a 404", async () => {
    as("operator");
    const onlyB = await lines(await exportOf("session", `?missionId=${missionB}`));
    expect(onlyB).toHaveLength(3);
    expect(onlyB.every((r) => r.conv_id === missionB)).toBe(true);
    const episodicA = await lines(await exportOf("episodic", `?missionId=${missionA}`));
    expect(episodicA).toHaveLength(2);
    expect(episodicA[0]).toMatchObject({ conv_id: missionA, error_encountered: { type: "rate_limited", tool: "http" }, successful_recovery: { strategy: "wait_and_retry_after" }, reusable_pattern: { action: "wait_and_retry_after" } });
    for (const bad of ["?missionId=abc", "?missionId="]) {
      const res = await exportOf("session", bad);
      expect(res.status, bad).toBe(400);
      expect((await errorOf(res)).message).toMatch(/missionId: must be a mission id \(a UUID\)/);
    }
    const unknown = await exportOf("episodic", `?missionId=${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toMatch(/Mission 0{8}-.* does not exist/);
  });

  it("a client that stops reading releases the query (the stream is cancelled)", async () => {
    as("admin");
    const res = await exportOf("session");
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    // The pool is intact: another export still works.
    expect(await lines(await exportOf("episodic"))).toHaveLength(3);
  });
});
