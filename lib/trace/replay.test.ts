import { describe, expect, it } from "vitest";
import type { MissionEvent } from "../mission/events";
import { comparable, sameComparable, writeParting } from "./replay";

/**
 * writeParting compares a derived write with the recorded one through a shortcut (sameComparable: the same
 * values need no serialising) and else the comparable forms. The shortcut must never hide a difference,
 * and a difference it cannot judge (redaction, masked fields, JSON's own rules) must still be judged.
 */
const ev = (payload: Record<string, unknown>, extra: Partial<MissionEvent> = {}): MissionEvent =>
  ({ missionId: "m", seq: 5, type: "tool.succeeded", actorId: "worker:1", at: "2026-11-27T00:00:00.000Z", payload, reason: "ran", impact: null, evidence: null, ...extra }) as unknown as MissionEvent;
const names = { derived: "replay", recorded: "worker", derivedEvent: "replayed", recordedEvent: "recorded" };
const part = (a: MissionEvent, b: MissionEvent) => writeParting([a], [b], names, () => "x");

describe("writeParting", () => {
  it("finds a difference deep in a payload, in an array element, or in a field present on one side", () => {
    const base = { agent: "a", step: 3, result: { ok: true, output: { files: ["a.txt", "b.txt"], bytes: 12 } } };
    expect(part(ev(base), ev(structuredClone(base)))).toBeNull();
    const deep = structuredClone(base);
    deep.result.output.bytes = 13;
    expect(sameComparable(ev(deep), ev(base))).toBe(false);
    expect(part(ev(deep), ev(base))).not.toBeNull();
    const arr = structuredClone(base);
    arr.result.output.files[1] = "c.txt";
    expect(part(ev(arr), ev(base))).not.toBeNull();
    expect(part(ev({ ...base, extra: 1 }), ev(base))).not.toBeNull();
    expect(part(ev(base, { reason: "other" }), ev(base))).not.toBeNull();
    expect(part(ev(base, { actorId: "worker:2" }), ev(base))).not.toBeNull();
  });

  it("judges what only the comparable form makes equal: a member left undefined, a secret redacted, a measured duration, a Date", () => {
    const a = ev({ agent: "a", note: undefined, headers: { Authorization: "Bearer abcdefghijkl" }, decisionTimeMs: 12, at: new Date("2026-11-27T00:00:00.000Z") });
    const b = ev({ agent: "a", headers: { Authorization: "[redacted:AUTHORIZATION]" }, decisionTimeMs: 40, at: "2026-11-27T00:00:00.000Z" });
    expect(sameComparable(a, b)).toBe(false);
    expect(comparable(a)).toBe(comparable(b));
    expect(part(a, b)).toBeNull();
  });
});
