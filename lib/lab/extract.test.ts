import { describe, expect, it } from "vitest";
import { failureSightings, type FailureSighting } from "./extract";
import { runSuite } from "./run";
import { parseSuite } from "./suite";

/** What simulation extraction counts (docs/lab.md "Simulation extraction"): one sighting per diagnosed failure, signed by what failed and how. */

const scenario = (name: string, url: string, type: string) => `
  - name: ${name}
    mission:
      name: ${name}
      objective: fetch
      phases:
        - name: EXECUTION
          agents:
            - { name: fetch, priority: critical, steps: [{ tool: http, args: { url: "${url}", method: GET } }] }
    faults:
      - { at: fetch/0, type: ${type} }
    operator: { otherwise: abort }
    expect: { finalStatus: [SUCCESS, PARTIAL_SUCCESS, FAILED] }`;

async function sightings(text: string, seed: number): Promise<Map<string, FailureSighting[]>> {
  const parsed = parseSuite(text, null);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const out = new Map<string, FailureSighting[]>();
  await runSuite(parsed.suite, { seed, repeat: 1, onRun: (_run, record, sc) => void out.set(sc.name, failureSightings(record)) });
  return out;
}

describe("failure sightings of a lab run", () => {
  it("sign the same failing thing failing the same way alike — across scenarios, seeds and ports — and different faults apart", async () => {
    const suite = `name: sig\nmemory: per-run\nscenarios:${scenario("a", "http://stock.internal:8080/v1/items", "timeout")}${scenario("b", "http://stock.internal:9090/v1/items", "timeout")}${scenario("c", "http://stock.internal:8080/v1/items", "rate_limited")}\n`;
    const one = await sightings(suite, 1);
    const two = await sightings(suite, 2);
    const sig = (m: Map<string, FailureSighting[]>, name: string) => m.get(name)!.map((s) => s.signature);
    expect(sig(one, "a")[0]).toMatch(/^timeout:/);
    expect(sig(one, "a")[0]).not.toMatch(/8080/);
    expect(sig(one, "b")[0]).toBe(sig(one, "a")[0]);
    expect(sig(two, "a")[0]).toBe(sig(one, "a")[0]);
    expect(sig(one, "c")[0]).toMatch(/^rate_limited:/);
    const a = one.get("a")![0];
    expect(a).toMatchObject({ agent: "fetch", step: 0, errorType: "timeout", injected: "timeout", errorCode: "TIMEOUT" });
    expect(a.query.object_class).toBe("http: stock.internal");
    expect(a.draft.surface_symptom.length).toBeGreaterThanOrEqual(10);
  });
});
