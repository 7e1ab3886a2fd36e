import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, dbError, type TestDatabase } from "../test-helpers";
import { auditLog } from "../schema";
import { personActor } from "../../lib/audit";
import { upsertUser } from "./users";
import { createSavedQuery, deleteSavedQuery, listSavedQueries } from "./saved-queries";
import type { BuiltInQuery } from "../../lib/query-filters";

let tdb: TestDatabase;
let ann: { id: string; name: string };
let bob: { id: string; name: string };
const builtIns: BuiltInQuery[] = [{ id: "builtin:unresolved", name: "All unresolved failures", query: "status=unresolved" }];

beforeAll(async () => {
  tdb = await createTestDatabase();
  ann = await upsertUser(tdb.db, { email: "ann@sq.test", name: "Ann Auditor", passwordHash: "x", roles: ["auditor"] });
  bob = await upsertUser(tdb.db, { email: "bob@sq.test", name: "Bob Admin", passwordHash: "x", roles: ["admin"] });
});
afterAll(() => tdb.drop());

const actorOf = (u: { id: string; name: string }) => personActor(u, "web", null);

describe("saved queries", () => {
  it("a private query is seen only by its owner; a shared one by everyone; built-ins come first", async () => {
    await createSavedQuery(tdb.db, actorOf(ann), { scope: "failures", userId: ann.id, name: "My timeouts", query: "type=timeout" });
    await createSavedQuery(tdb.db, actorOf(ann), { scope: "failures", userId: ann.id, name: "Team view", query: "level=phase", shared: true });
    await createSavedQuery(tdb.db, actorOf(ann), { scope: "audit", userId: ann.id, name: "Audit only", query: "action=gate.decide" });

    const annSees = await listSavedQueries(tdb.db, { scope: "failures", userId: ann.id, builtIns });
    expect(annSees.map((q) => [q.name, q.builtIn, q.mine])).toEqual([
      ["All unresolved failures", true, false],
      ["My timeouts", false, true],
      ["Team view", false, true],
    ]);
    const bobSees = await listSavedQueries(tdb.db, { scope: "failures", userId: bob.id, builtIns });
    expect(bobSees.map((q) => [q.name, q.mine, q.ownerName])).toEqual([
      ["All unresolved failures", false, null],
      ["Team view", false, "Ann Auditor"],
    ]);
  });

  it("creating and deleting are in the audit log; only the owner deletes; built-ins cannot be deleted", async () => {
    const q = await createSavedQuery(tdb.db, actorOf(bob), { scope: "failures", userId: bob.id, name: "Bob's", query: "decidedBy=user%3Ax", shared: true });
    expect(await dbError(deleteSavedQuery(tdb.db, actorOf(ann), { scope: "failures", userId: ann.id, id: q.id }))).toContain("only its owner can delete it");
    expect(await dbError(deleteSavedQuery(tdb.db, actorOf(ann), { scope: "failures", userId: ann.id, id: "builtin:unresolved" }))).toContain("cannot be deleted");
    await deleteSavedQuery(tdb.db, actorOf(bob), { scope: "failures", userId: bob.id, id: q.id });
    expect((await listSavedQueries(tdb.db, { scope: "failures", userId: bob.id })).map((x) => x.name)).not.toContain("Bob's");

    const rows = await tdb.db.select().from(auditLog).where(eq(auditLog.targetId, q.id));
    expect(rows.map((r) => [r.action, r.actorId])).toEqual([
      ["saved_query.create", `user:${bob.id}`],
      ["saved_query.delete", `user:${bob.id}`],
    ]);
    expect(rows[1].before).toMatchObject({ name: "Bob's", query: "decidedBy=user%3Ax" });
  });

  it("a nameless query is refused with the field named", async () => {
    expect(await dbError(createSavedQuery(tdb.db, actorOf(ann), { scope: "failures", userId: ann.id, name: "  ", query: "" }))).toContain("give the query a name");
  });
});
