import { beforeAll, describe, expect, it } from "vitest";
import { createMission, listEventsAfter } from "../../db/queries/events";
import { readDebugSource, readModelTapes, readTapesAfter } from "../../db/queries/traces";
import { ensureActor } from "../../db/queries/users";
import { debugAtSeq } from "../../lib/lab/debug";
import { reasoningLines } from "../../lib/lab/projection";
import { missionDefinitionSchema } from "../../lib/mission";
import { reduce } from "../../lib/mission/reducer";
import { startReplayServer } from "../model-replay";
import { useWorkerHarness } from "./test-harness";

/**
 * The console's debug mode (seed 002 FDR-N012) against a real worker on PostgreSQL and a loopback
 * OpenAI-compatible model server: for each model turn, the request the debug view derives from the log
 * (the state its write started from) is the very body the server received, and the response is the one
 * the flight recorder kept in event_io.
 */
const harness = useWorkerHarness("fl-debug-");

/** A chat body with the JSON text inside it (message contents, tool-call arguments) parsed. */
function parsedJson(body: unknown): unknown {
  const parse = (t: unknown) => {
    if (typeof t !== "string") return t;
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return t;
    }
  };
  const b = body as { messages: Array<{ content?: unknown; tool_calls?: Array<{ function: { arguments: unknown } }> }> };
  return { ...b, messages: b.messages.map((m) => ({ ...m, content: parse(m.content), ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ ...c, function: { ...c.function, arguments: parse(c.function.arguments) } })) } : {}) })) };
}
beforeAll(async () => {
  await ensureActor(harness.tdb.db, { id: "system:authority", kind: "system", displayName: "authority" });
});

describe("debug at a seq on a worker's mission", () => {
  it("derives each model turn's request exactly as the model server received it, beside the recorded response", async () => {
    const goal = "Write hello into notes.txt, then finish.";
    const server = await startReplayServer({
      recordings: {
        recordings: [
          {
            id: "debug",
            goal,
            turns: [
              { toolCalls: [{ name: "shell", arguments: { command: "rm", args: ["-rf", "/"] } }] },
              { toolCalls: [{ name: "file", arguments: { op: "write", path: "notes.txt", content: "hello\n" } }] },
              { toolCalls: [{ name: "finish", arguments: { summary: "done" } }], content: "Written." },
            ],
          },
        ],
      },
    });
    try {
      const def = missionDefinitionSchema.parse({
        name: "debug view",
        objective: "an autonomous agent, watched in debug",
        library: false,
        allowedBinaries: ["ls"],
        phases: [{ name: "EXECUTION", agents: [{ name: "writer", priority: "critical", autonomous: { goal, tools: ["file", "shell"], maxActions: 6, evidence: [{ file_exists: "notes.txt" }] } }] }],
      });
      const id = (await createMission(harness.tdb.db, { definition: def, actorId: "user:op" })).id;
      await harness.startWorker({ llmProviders: [{ ...server.provider, timeoutMs: 5000 }] });
      const s = await harness.settle(id);
      expect(s.finalStatus).toBe("SUCCESS");
      expect(server.bodies).toHaveLength(3);

      const events = await listEventsAfter(harness.tdb.db, { missionId: id });
      const submitted = events.filter((e) => e.type === "proposal.submitted");
      expect(submitted).toHaveLength(3);
      for (const [i, e] of submitted.entries()) {
        const src = await readDebugSource(harness.tdb.db, id, e.seq);
        const d = debugAtSeq(src.events, e.seq, src.tape, src.config);
        expect(d.state).toEqual(reduce(events.slice(0, e.seq)));
        expect(d.modelCalls).toHaveLength(1);
        // The request: the body the model server got, member for member. JSON inside a message is compared
        // parsed: the log's jsonb keeps no key order, so a decision the worker wrote as {expectedOutcome,
        // confidence} reads back as {confidence, expectedOutcome} (the same object, another string).
        expect(parsedJson(d.modelCalls[0].request)).toEqual(parsedJson(server.bodies[i]));
        expect(JSON.stringify(d.modelCalls[0].request).length).toBe(JSON.stringify(server.bodies[i]).length);
        // The response: as recorded — the call the server answered with.
        expect(d.modelCalls[0].response).toMatchObject({ ok: true, call: { name: ["shell", "file", "finish"][i] }, model: { provider: server.provider.name, model: "recorded:debug" } });
      }
      // A person's or the seed's event has no readings.
      const created = await readDebugSource(harness.tdb.db, id, 1);
      expect(debugAtSeq(created.events, 1, created.tape)).toMatchObject({ write: null, modelCalls: [] });

      // The model-call lines of watch: one a turn, at the seq of the write that asked.
      // Only the writes that asked a model are read for them, and they give the same lines as every write.
      const modelTapes = await readModelTapes(harness.tdb.db, id);
      const all = await readTapesAfter(harness.tdb.db, id, 0);
      expect(modelTapes.length).toBeLessThan(all.length);
      expect(modelTapes.map((t) => t.seq)).toEqual(all.filter((t) => t.tape.reads.some((r) => r.k === "think" || r.k === "reflect")).map((t) => t.seq));
      const lines = reasoningLines(modelTapes, { mode: "watch", missionId: id });
      expect(lines).toEqual(reasoningLines(all, { mode: "watch", missionId: id }));
      expect(lines.filter((l) => l.kind === "think").map((l) => [l.seq, l.text])).toEqual(submitted.map((e, i) => [e.seq, `model (writer): call ${["shell", "file", "finish"][i]}`]));
    } finally {
      await server.close();
    }
  });
});
