import { describe, expect, it } from "vitest";
import { loadStarterLibrary } from "../db/queries/library";
import { starterLibrary } from "../db/seed";
import { parseLibraryFile } from "../lib/library/io";
import { as, errorOf, params, url, useRouteTestDatabase } from "./route-test-helpers";

/**
 * The library REST routes (app/api/v1/library, except contributions), called as Next.js calls them on a
 * real PostgreSQL. Only the session lookup is replaced; authorization is `can()` in every handler.
 */

const query = await import("../app/api/v1/library/query/route");
const entries = await import("../app/api/v1/library/entries/route");
const entry = await import("../app/api/v1/library/entries/[id]/route");
const exporter = await import("../app/api/v1/library/export/route");
const importer = await import("../app/api/v1/library/import/route");
const versions = await import("../app/api/v1/library/versions/route");
const rollback = await import("../app/api/v1/library/rollback/route");

const starter = starterLibrary();

type Handler = (r: Request, c: { params: Promise<never> }) => Promise<Response>;
const post = (mod: { POST: unknown }, p: string, body: string, type = "application/json") => (mod.POST as Handler)(new Request(url(p), { method: "POST", body, headers: { "content-type": type } }), params({}) as never);
const get = (mod: { GET: unknown }, p: string, ps: object = {}) => (mod.GET as Handler)(new Request(url(p)), params(ps) as never);
const drawer = { observed_symptom: "0 mm displacement on pull action", object_class: "drawer", force_applied: "within Class B parameters", environmental_context: ["indoor", "furniture", "wood-frame"] };

useRouteTestDatabase((tdb) => loadStarterLibrary(tdb.db, starter, "system:seed"));

describe("POST /api/v1/library/query", () => {
  it("ranks hypotheses for the document's query, highest first, for any signed-in role; 401 without a session", async () => {
    as();
    expect((await post(query, "/api/v1/library/query", JSON.stringify(drawer))).status).toBe(401);
    as("auditor");
    const res = await post(query, "/api/v1/library/query?limit=3&include=entry", JSON.stringify(drawer));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: Array<{ failure_id: string; match_score: number; hypothesis: string; entry?: { surface_symptom: string } }>; abstained: boolean };
    expect(body.abstained).toBe(false);
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(3);
    expect(body.results[0]).toMatchObject({ failure_id: expect.stringMatching(/^FM-PHY-/), hypothesis: expect.any(String) });
    expect(body.results[0].entry?.surface_symptom).toEqual(expect.any(String));
    const scores = body.results.map((r) => r.match_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const s of scores) expect(s).toBeGreaterThan(0), expect(s).toBeLessThanOrEqual(1);
  });

  it("answers 400 naming the field for a bad query, a bad limit and malformed JSON", async () => {
    as("contributor");
    const missing = await post(query, "/api/v1/library/query", JSON.stringify({ object_class: "drawer" }));
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).details?.fieldErrors).toEqual([{ path: "observed_symptom", message: expect.stringMatching(/required/) }]);
    const extra = await post(query, "/api/v1/library/query", JSON.stringify({ ...drawer, colour: "red" }));
    expect(extra.status).toBe(400);
    const limit = await post(query, "/api/v1/library/query?limit=500", JSON.stringify(drawer));
    expect(limit.status).toBe(400);
    expect((await errorOf(limit)).message).toMatch(/limit: must be at most 50/);
    const broken = await post(query, "/api/v1/library/query", "{nope");
    expect(broken.status).toBe(400);
    expect((await errorOf(broken)).message).toMatch(/not valid JSON/);
  });
});

describe("GET /api/v1/library/entries and /entries/:id", () => {
  it("lists entries with filters and paging; 400 for a bad filter", async () => {
    as("auditor");
    const res = await get(entries, "/api/v1/library/entries?category=Constraint&risk=Low&per=25&sort=title");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { libraryVersion: number; total: number; entries: Array<{ category: string; risk_level: string; title: string }> };
    expect(body.libraryVersion).toBe(1);
    expect(body.total).toBe(starter.filter((e) => e.category === "Constraint" && e.risk_level === "Low").length);
    for (const e of body.entries) expect([e.category, e.risk_level]).toEqual(["Constraint", "Low"]);
    const bad = await get(entries, "/api/v1/library/entries?risk=Extreme");
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/risk.0: must be one of Low, Medium, High, Requires-Oversight/);
  });

  it("returns an entry with its history; 404 for an unknown or malformed id", async () => {
    as("contributor");
    const res = await get(entry, "/api/v1/library/entries/FM-PHY-0001", { id: "FM-PHY-0001" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { entry: { failure_id: string }; history: Array<{ change: string }>; matches: unknown[] };
    expect(body.entry.failure_id).toBe("FM-PHY-0001");
    expect(body.history.map((h) => h.change)).toEqual(["added"]);
    expect(body.matches).toEqual([]);
    for (const id of ["FM-PHY-9999", "<script>"]) {
      const r = await get(entry, `/api/v1/library/entries/${encodeURIComponent(id)}`, { id });
      expect(r.status).toBe(404);
      expect((await errorOf(r)).message).toMatch(/does not exist/);
    }
  });
});

describe("import, export, versions and rollback", () => {
  const yamlEntry = [
    "- failure_id: FM-TST-0100",
    "  category: Environmental",
    "  surface_symptom: Robot wheel slips on the kitchen floor at 0.2 m/s",
    "  hidden_reality: The floor was just mopped and is still wet.",
    "  diagnostic_probe: Check the floor's reflectance and the wheel odometry against the IMU.",
    "  resolution_path: Wait for the floor to dry or reroute over the mat.",
    "  risk_level: Medium",
    "  context_tags: [floor, wet, mobile-base]",
  ].join("\n");

  it("needs library.manage: operators, reviewers and contributors get 403; 401 signed out", async () => {
    for (const role of ["operator", "reviewer", "contributor", "auditor"] as const) {
      as(role);
      expect((await get(exporter, "/api/v1/library/export")).status, role).toBe(403);
      const imp = await post(importer, "/api/v1/library/import", yamlEntry, "application/yaml");
      expect(imp.status, role).toBe(403);
      expect((await errorOf(imp)).message).toMatch(/library manage: that needs admin/);
      expect((await post(rollback, "/api/v1/library/rollback", JSON.stringify({ to: 1 }))).status).toBe(403);
    }
    as();
    expect((await post(importer, "/api/v1/library/import", yamlEntry, "application/yaml")).status).toBe(401);
  });

  it("an admin previews, imports, exports, lists versions and rolls back", async () => {
    as("admin");
    const dry = await post(importer, "/api/v1/library/import?dryRun=true", yamlEntry, "application/yaml");
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({ ok: true, dryRun: true, version: null, counts: { added: 1, edited: 0, unchanged: 0, deprecated: 0, restored: 0 } });
    const done = await post(importer, "/api/v1/library/import", yamlEntry, "application/yaml");
    expect(await done.json()).toMatchObject({ ok: true, dryRun: false, version: 2, ids: { added: ["FM-TST-0100"] } });

    const ex = await get(exporter, "/api/v1/library/export?format=json");
    expect(ex.status).toBe(200);
    expect(ex.headers.get("content-disposition")).toBe('attachment; filename="faultline-library-v2.json"');
    const parsed = parseLibraryFile(await ex.text());
    expect(parsed.ok && parsed.entries.length).toBe(starter.length + 1);
    const yaml = await (await get(exporter, "/api/v1/library/export")).text();
    expect(yaml).toMatch(/^# Faultline failure-mode library, version 2/);
    expect((await get(exporter, "/api/v1/library/export?format=xml")).status).toBe(400);

    const v = (await (await get(versions, "/api/v1/library/versions")).json()) as { current: number; versions: Array<{ version: number; summary: string }> };
    expect(v.current).toBe(2);
    expect(v.versions[0].summary).toMatch(/^Import: 1 added/);

    const bad = await post(rollback, "/api/v1/library/rollback", JSON.stringify({ to: 2 }));
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/Roll back to a version from 1 to 1/);
    const rb = await post(rollback, "/api/v1/library/rollback", JSON.stringify({ to: 1 }));
    expect(await rb.json()).toEqual({ version: 3, rolledBackTo: 1 });
    const gone = await get(entries, "/api/v1/library/entries?q=FM-TST-0100");
    expect(((await gone.json()) as { total: number }).total).toBe(0);
  });

  it("refuses an invalid file with every error (position, id, field, line) and imports nothing", async () => {
    as("admin");
    const res = await post(importer, "/api/v1/library/import", yamlEntry.replace("risk_level: Medium", "risk_level: Severe").replace("FM-TST-0100", "FM-TST-0101"), "application/yaml");
    expect(res.status).toBe(400);
    const err = await errorOf(res);
    expect(err.message).toMatch(/entry 1 \(FM-TST-0101, line 7\), risk_level: must be one of Low/);
    expect(err.details?.errors).toEqual([expect.objectContaining({ index: 0, failureId: "FM-TST-0101", path: "risk_level", line: 7 })]);
    const none = await get(entries, "/api/v1/library/entries?q=FM-TST-0101&deprecated=show");
    expect(((await none.json()) as { total: number }).total).toBe(0);
    const badFlag = await post(importer, "/api/v1/library/import?replace=maybe", yamlEntry, "application/yaml");
    expect((await errorOf(badFlag)).message).toMatch(/replace: must be true or false/);
  });
});
