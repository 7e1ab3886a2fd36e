import { describe, expect, it } from "vitest";
import { starterLibrary } from "@/db/seed";
import { loadStarterLibrary } from "@/db/queries/library";
import { queryLibrary } from "@/db/queries/library-query";
import { ensureActor } from "@/db/queries/users";
import type { TestDatabase } from "@/db/test-helpers";
import type { Principal } from "@/lib/auth/roles";
import { errorOf, jsonRequest as json, params, signedInAs, url, useRouteTestDatabase } from "@/server/route-test-helpers";

/**
 * The contributions REST routes, called as Next.js calls them (the exported handler with a Request and
 * its params) on a real PostgreSQL. Only the session lookup is replaced; authorization is `can()` in
 * every handler, and the self-approval rule is the query layer's.
 */

const list = await import("./route");
const one = await import("./[id]/route");
const reviews = await import("./[id]/reviews/route");
const comments = await import("./[id]/comments/route");

let tdb: TestDatabase;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

const people: Record<string, Principal> = {
  carla: { id: "carla", name: "Carla Contributor", email: "carla@x", roles: ["contributor"] },
  rita: { id: "rita", name: "Rita Reviewer", email: "rita@x", roles: ["reviewer"] },
  ada: { id: "ada", name: "Ada Admin", email: "ada@x", roles: ["admin"] },
  aud: { id: "aud", name: "Auditor", email: "aud@x", roles: ["auditor"] },
};
const as = (who: keyof typeof people | null) => signedInAs(who ? people[who] : null);
const post = (body: unknown) => list.POST(json("POST", "/api/v1/library/contributions", body), params({}));
const review = (id: string, body: unknown) => reviews.POST(json("POST", `/api/v1/library/contributions/${id}/reviews`, body), params({ id }));
const comment = (id: string, body: unknown) => comments.POST(json("POST", `/api/v1/library/contributions/${id}/comments`, body), params({ id }));

const entry = {
  category: "Physical",
  surface_symptom: "Sliding patio door moves 2 cm then jams hard; the handle turns freely",
  hidden_reality: "A broom handle or security bar lies in the bottom track behind the curtain and blocks the slide.",
  diagnostic_probe: "Look along the full bottom track, behind curtains, with a torch.",
  resolution_path: "Lift the bar out of the track, then slide the door.",
  risk_level: "Low",
  context_tags: ["door", "sliding", "patio"],
  source: "crowdsourcing",
};

useRouteTestDatabase(async (t) => {
  tdb = t;
  await loadStarterLibrary(tdb.db, starterLibrary(), "system:seed");
  for (const p of Object.values(people)) await ensureActor(tdb.db, { id: `user:${p.id}`, kind: "user", displayName: p.name });
});

describe("/api/v1/library/contributions", () => {
  it("401 without a session; 403 naming the permission for an auditor who tries to contribute", async () => {
    as(null);
    expect((await list.GET(new Request(url("/api/v1/library/contributions")), params({}))).status).toBe(401);
    expect((await post({ entry })).status).toBe(401);
    as("aud");
    expect((await list.GET(new Request(url("/api/v1/library/contributions")), params({}))).status).toBe(200);
    const res = await post({ entry });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toMatch(/library contribute: that needs admin or operator or reviewer or contributor/);
  });

  it("400 with field messages for a bad entry, bad JSON or a bad filter", async () => {
    as("carla");
    const bad = await post({ entry: { ...entry, category: "Cosmic", hidden_reality: "x" } });
    expect(bad.status).toBe(400);
    const e = await errorOf(bad);
    expect(e.details?.fieldErrors?.map((f) => f.path).sort()).toEqual(["entry.category", "entry.hidden_reality"]);
    expect(e.message).toMatch(/entry.category must be one of Physical, Material, Constraint, Environmental, State/);
    expect((await post("{not json")).status).toBe(400);
    expect((await post({ entry, colour: "red" })).status).toBe(400);
    const f = await list.GET(new Request(url("/api/v1/library/contributions?status=lost")), params({}));
    expect(f.status).toBe(400);
    expect((await errorOf(f)).message).toMatch(/status: must be one of draft/);
  });

  it("a contributor proposes (sees similar entries), cannot approve their own (409), a reviewer approves and the entry is then a query result", async () => {
    as("carla");
    const created = await post({ entry, summary: "Seen twice this winter" });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { contribution: { id: string; status: string }; similar: { results: Array<{ failure_id: string; match_score: number }>; abstained: boolean } };
    expect(body.contribution.status).toBe("pending");
    expect(body.similar.abstained || body.similar.results.every((r) => r.match_score >= 0 && r.match_score <= 1)).toBe(true);
    const id = body.contribution.id;
    // The author, even as a reviewer or an admin, is refused.
    signedInAs({ ...people.carla, roles: ["contributor", "reviewer"] });
    const self = await review(id, { verdict: "approve", reason: "I checked it myself" });
    expect(self.status).toBe(409);
    expect((await errorOf(self)).message).toMatch(/never review or approve their own/);
    as("carla");
    expect((await review(id, { verdict: "approve", reason: "fine" })).status).toBe(403); // not a reviewer at all
    as("rita");
    expect((await review(id, { verdict: "approve" })).status).toBe(400);
    expect((await review(UNKNOWN, { verdict: "approve", reason: "looks right" })).status).toBe(404);
    expect((await review("not-an-id", { verdict: "approve", reason: "looks right" })).status).toBe(404);
    const ok = await review(id, { verdict: "approve", reason: "Common, clear probe." });
    expect(ok.status).toBe(200);
    const outcome = (await ok.json()) as { status: string; failureId: string; publishedVersion: number };
    expect(outcome).toMatchObject({ status: "approved", publishedVersion: 2 });
    expect((await review(id, { verdict: "reject", reason: "too late" })).status).toBe(409);
    const q = await queryLibrary(tdb.db, { observed_symptom: "sliding patio door jams after 2 cm, handle turns freely", object_class: "door", environmental_context: ["patio"] });
    expect(q.results.map((r) => r.failure_id)).toContain(outcome.failureId);
    // GET one and the list.
    const got = await one.GET(new Request(url(`/api/v1/library/contributions/${id}`)), params({ id }));
    expect(((await got.json()) as { contribution: { status: string; publishedVersion: number } }).contribution).toMatchObject({ status: "approved", publishedVersion: 2 });
    expect((await one.GET(new Request(url(`/api/v1/library/contributions/${UNKNOWN}`)), params({ id: UNKNOWN }))).status).toBe(404);
    as("carla");
    const mine = (await (await list.GET(new Request(url("/api/v1/library/contributions?mine=1&status=approved")), params({}))).json()) as { contributions: Array<{ id: string }> };
    expect(mine.contributions.map((c) => c.id)).toEqual([id]);
  });

  it("comments and replies: 201; a reply to a comment of another contribution is 400; PATCH by someone else is 403", async () => {
    as("carla");
    const { contribution } = (await (await post({ entry: { ...entry, title: "Second door" }, submit: false })).json()) as { contribution: { id: string } };
    const first = await comment(contribution.id, { body: "<script>alert(1)</script> is kept as text" });
    expect(first.status).toBe(201);
    const c1 = ((await first.json()) as { comment: { id: number; body: string } }).comment;
    expect(c1.body).toBe("<script>alert(1)</script> is kept as text");
    const reply = await comment(contribution.id, { body: "A reply", parent_id: c1.id });
    expect(((await reply.json()) as { comment: { parentId: number } }).comment.parentId).toBe(c1.id);
    expect((await comment(contribution.id, { body: "" })).status).toBe(400);
    as("ada");
    // Carla's draft is private to her: a reviewer or admin does not see it.
    expect((await comment(contribution.id, { body: "hello" })).status).toBe(404);
    const patchDraft = () => one.PATCH(json("PATCH", `/api/v1/library/contributions/${contribution.id}`, { entry }), params({ id: contribution.id }));
    expect((await patchDraft()).status).toBe(404);
    as("carla");
    const submitted = await one.PATCH(json("PATCH", `/api/v1/library/contributions/${contribution.id}`, { entry: { ...entry, title: "Second door" } }), params({ id: contribution.id }));
    expect(submitted.status).toBe(200);
    expect(((await submitted.json()) as { contribution: { status: string } }).contribution.status).toBe("pending");
    // Submitted, it is visible to all, but only its author changes it.
    as("ada");
    const other = await patchDraft();
    expect(other.status).toBe(403);
    expect((await errorOf(other)).message).toMatch(/Only the author/);
  });
});
