import { getMissionState } from "../db/queries/missions";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMission } from "../db/queries/events";
import { pauseMission, resumeMission } from "../db/queries/mission-control";
import { listFailuresByMission } from "../db/queries/audit";
import { ensureActor } from "../db/queries/users";
import { missions, operatorPresence } from "../db/schema";
import { createTestDatabase, type TestDatabase } from "../db/test-helpers";
import type { Principal } from "../lib/auth/roles";
import { definition } from "../lib/mission/test-fixtures";
import { OperatorPresence, PRESENCE_ACTOR } from "./presence";

let tdb: TestDatabase;
const operator: Principal = { id: "00000000-0000-4000-8000-0000000000aa", name: "Olivia Operator", email: "o@x", roles: ["operator"] };
const auditor: Principal = { id: "00000000-0000-4000-8000-0000000000bb", name: "Aldo Auditor", email: "a@x", roles: ["auditor"] };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  tdb = await createTestDatabase();
  for (const [id, name] of [[`user:${operator.id}`, operator.name], [`user:${auditor.id}`, auditor.name], [PRESENCE_ACTOR, "web"]]) await ensureActor(tdb.db, { id, kind: id.startsWith("user") ? "user" : "system", displayName: name });
});
afterAll(async () => tdb?.drop());

async function stateOf(id: string) {
  return (await getMissionState(tdb.db, id))!;
}

describe("client failures (FAILURE_MODEL level 4)", () => {
  it("an operator who owns a running mission and stays disconnected past the grace period has it paused, with an audit entry", async () => {
    const m = await createMission(tdb.db, { definition: definition(), actorId: `user:${operator.id}` });
    const presence = new OperatorPresence(tdb.db, 150);
    presence.connected(operator);
    presence.disconnected(operator);
    await expect.poll(async () => (await stateOf(m.id)).paused, { timeout: 10_000 }).not.toBeNull();
    const s = await stateOf(m.id);
    expect(s.paused).toMatchObject({ kind: "client" });
    expect(s.paused?.message).toMatch(/^Operator disconnected, mission paused/);
    const audit = await listFailuresByMission(tdb.db, m.id);
    expect(audit.map((a) => [a.level, a.severity, a.resolution])).toEqual([["client", "warning", null]]);
    // On reconnect the operator resumes it; the audit entry is resolved by that decision.
    await resumeMission(tdb.db, { missionId: m.id, actorId: `user:${operator.id}`, message: "back online" });
    expect((await listFailuresByMission(tdb.db, m.id))[0].resolution).toMatchObject({ action: "resume", resolvedBy: `user:${operator.id}` });
    await presence.close();
  });

  it("a reconnect within the grace period changes nothing, and an observer's disconnect never pauses", async () => {
    const mine = await createMission(tdb.db, { definition: definition(), actorId: `user:${operator.id}` });
    const presence = new OperatorPresence(tdb.db, 150);
    presence.connected(operator);
    presence.disconnected(operator);
    await wait(50);
    presence.connected(operator);
    presence.connected(auditor);
    presence.disconnected(auditor);
    await wait(300);
    expect((await stateOf(mine.id)).paused).toBeNull();
    await presence.close();
  });

  it("counts an operator's sockets on every web process: no pause while another live process holds one; a process that stopped refreshing does not count", async () => {
    const m = await createMission(tdb.db, { definition: definition(), actorId: `user:${operator.id}` });
    const said: string[] = [];
    const a = new OperatorPresence(tdb.db, 100, (line) => said.push(line));
    const b = new OperatorPresence(tdb.db, 100);
    expect(a.webId).not.toBe(b.webId);
    a.connected(operator);
    b.connected(operator); // a second tab, served by the other web process
    await b.flushed();
    a.disconnected(operator);
    await expect.poll(() => said.join("\n"), { timeout: 10_000 }).toMatch(/one on another web process; nothing paused/);
    expect((await stateOf(m.id)).paused).toBeNull();
    // The last socket goes: the other process pauses the operator's missions after its grace period.
    b.disconnected(operator);
    await expect.poll(async () => (await stateOf(m.id)).paused?.kind, { timeout: 10_000 }).toBe("client");
    await resumeMission(tdb.db, { missionId: m.id, actorId: `user:${operator.id}`, message: "back" });

    // A web process that died holding a socket (its row is no longer refreshed) does not keep the operator "connected".
    await tdb.db.insert(operatorPresence).values({ webId: "web:gone:1", userId: operator.id, sockets: 1, seenAt: sql`now() - interval '1 hour'` });
    a.connected(operator);
    a.disconnected(operator);
    await expect.poll(async () => (await stateOf(m.id)).paused?.kind, { timeout: 10_000 }).toBe("client");
    // A clean stop removes the process's rows.
    await a.close();
    await b.close();
    expect(await tdb.db.select().from(operatorPresence).where(sql`${operatorPresence.webId} in (${a.webId}, ${b.webId})`)).toEqual([]);
  });

  it("pause and resume refuse what makes no sense, with words", async () => {
    const m = await createMission(tdb.db, { definition: definition(), actorId: `user:${operator.id}` });
    await expect(resumeMission(tdb.db, { missionId: m.id, actorId: `user:${operator.id}`, message: "x" })).rejects.toThrow(/is not paused/);
    await pauseMission(tdb.db, { missionId: m.id, actorId: `user:${operator.id}`, kind: "operator", message: "hold on" });
    await expect(pauseMission(tdb.db, { missionId: m.id, actorId: `user:${operator.id}`, kind: "operator", message: "again" })).rejects.toThrow(/already paused \(operator: hold on\)/);
  });
});
