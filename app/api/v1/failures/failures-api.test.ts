import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import type { TestDatabase } from "@/db/test-helpers";
import { createMission } from "@/db/queries/events";
import { ensureActor } from "@/db/queries/users";
import { auditLog } from "@/db/schema";
import { definition } from "@/lib/mission/test-fixtures";
import { as, errorOf, params, url, useRouteTestDatabase } from "@/server/route-test-helpers";

/** The failure history's REST routes, called as Next.js calls them, on a real PostgreSQL. */

const list = await import("./route");
const stats = await import("./stats/route");
const exporter = await import("./export/route");

let tdb: TestDatabase;
let mission: string;

type Route = { GET: (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> };
const get = (mod: Route, path: string) => mod.GET(new Request(url(path)), params({}));

useRouteTestDatabase(async (t) => {
  tdb = t;
  await ensureActor(tdb.db, { id: "user:ann", kind: "user", displayName: "Ann, \"the\" auditor" });
  mission = (await createMission(tdb.db, { definition: definition({ name: "csv test" }), actorId: "user:ann" })).id;
  // Texts a spreadsheet would misread: commas, quotes, line breaks, and a formula.
  await tdb.db.execute(sql`
    insert into failure_audit (mission_id, seq, "timestamp", level, severity, what, why, context, agent, definition, error_type, started_by)
    values
      (${mission}, 2, now() - interval '3 minutes', 'agent', 'error', 'Step 1 failed, then "retried"', ${"line one\nline two"}, '{}', 'fetch', 'csv, "quoted"', 'rate_limited', 'user:ann'),
      (${mission}, 3, now() - interval '2 minutes', 'agent', 'critical', '=HYPERLINK("http://evil")', 'plain', '{}', 'build', 'csv, "quoted"', 'exit_nonzero', 'user:ann'),
      (${mission}, 4, now() - interval '1 minutes', 'phase', 'error', 'Phase EXECUTION failed (timeout).', null, '{}', null, 'csv, "quoted"', 'phase_timeout', 'user:ann')`);
});

describe("GET /api/v1/failures", () => {
  it("pages with a cursor and a total; bad filters are a 400 naming each field", async () => {
    as("auditor");
    const first = await get(list, `/api/v1/failures?mission=${mission}&limit=2`);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { rows: Array<{ errorType: string; startedByName: string }>; nextCursor: string; total: { count: number; capped: boolean } };
    expect(body.rows.map((r) => r.errorType)).toEqual(["phase_timeout", "exit_nonzero"]);
    expect(body.rows[0].startedByName).toBe('Ann, "the" auditor');
    expect(body.total).toEqual({ count: 3, capped: false });
    const second = (await (await get(list, `/api/v1/failures?mission=${mission}&limit=2&cursor=${body.nextCursor}`)).json()) as { rows: Array<{ errorType: string }>; nextCursor: string | null };
    expect(second.rows.map((r) => r.errorType)).toEqual(["rate_limited"]);
    expect(second.nextCursor).toBeNull();

    const bad = await get(list, "/api/v1/failures?level=galactic&from=last-tuesday&limit=9000");
    expect(bad.status).toBe(400);
    const err = await errorOf(bad);
    // Filters and paging are one query schema (the API contract): every bad field is named at once.
    expect(err.details?.fieldErrors?.map((f) => f.path).sort()).toEqual(["from", "level", "limit"]);
    expect(err.message).toContain("level: must be one of agent, phase, infrastructure, client");
    const badLimit = await get(list, "/api/v1/failures?limit=9000");
    expect(badLimit.status).toBe(400);
    expect((await errorOf(badLimit)).message).toContain("limit: must be at most 500");
    expect((await get(list, "/api/v1/failures?cursor=garbage")).status).toBe(400);
  });

  it("needs history.view: signed out is a 401", async () => {
    as();
    expect((await get(list, "/api/v1/failures")).status).toBe(401);
  });
});

describe("GET /api/v1/failures/stats", () => {
  it("returns the charts' data for the filters", async () => {
    as("auditor");
    const res = await get(stats, `/api/v1/failures/stats?mission=${mission}&from=1h`);
    expect(res.status).toBe(200);
    const s = (await res.json()) as { bucket: string; overTime: { types: string[] }; outcomes: Array<{ outcome: string; count: number }> };
    expect(s.bucket).toBe("hour");
    expect(s.overTime.types.sort()).toEqual(["exit_nonzero", "phase_timeout", "rate_limited"]);
    expect(s.outcomes).toEqual([{ outcome: "unresolved", count: 3 }]);
    expect((await get(stats, "/api/v1/failures/stats?status=maybe")).status).toBe(400);
  });
});

describe("GET /api/v1/failures/export", () => {
  it("CSV: a header row, RFC 4180 quoting of commas, quotes and line breaks, formulas neutralised; the export is audited", async () => {
    as("auditor");
    const res = await get(exporter, `/api/v1/failures/export?mission=${mission}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="failures-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = await res.text();
    const [header] = text.split("\r\n");
    expect(header.startsWith("time,missionId,seq,definition,phase,agent,step,attempt,level,severity,errorType,what,why,rootCause")).toBe(true);
    expect(text).toContain(`"csv, ""quoted"""`);
    expect(text).toContain(`"Step 1 failed, then ""retried"""`);
    expect(text).toContain(`"line one\nline two"`);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).toContain(`"Ann, ""the"" auditor"`);
    expect(text.trimEnd().split("\r\n")).toHaveLength(1 + 3); // records end in CRLF; the line break inside a quoted field does not split one

    const audited = await tdb.db.select().from(auditLog).where(eq(auditLog.action, "history.export"));
    expect(audited.map((a) => [a.missionId, a.after])).toEqual([[mission, { query: `mission=${mission}`, format: "csv" }]]);
  });

  it("JSON Lines: one object per failure; a bad format is a 400", async () => {
    as("auditor");
    const res = await get(exporter, `/api/v1/failures/export?mission=${mission}&format=jsonl&type=rate_limited`);
    expect(res.headers.get("content-disposition")).toMatch(/failures-\d{4}-\d{2}-\d{2}\.jsonl/);
    const lines = (await res.text()).split("\n").filter(Boolean).map((l) => JSON.parse(l) as { why: string; errorType: string });
    expect(lines).toEqual([expect.objectContaining({ errorType: "rate_limited", why: "line one\nline two" })]);
    const bad = await get(exporter, "/api/v1/failures/export?format=xlsx");
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain("must be csv or jsonl");
  });
});
