/**
 * Exhaustive bounded model check of the real mission engine + reducer (issue 7, RFC 001 §3.8).
 *
 *   node --import tsx scripts/model-check.ts                 # the full bound (DEFAULT_BOUNDS)
 *   node --import tsx scripts/model-check.ts --preset ci     # the bound the vitest test runs
 *   node --import tsx scripts/model-check.ts --agents 3 --steps 2 --retries 2 --phases 2 --crashes 1 --pauses 1
 *
 * Exits 0 when every invariant holds at the bound, 1 on a violation (the shortest counterexample is printed),
 * 2 on bad arguments. See spec/README.md.
 */
import { parseArgs } from "node:util";
import { CI_BOUNDS, DEFAULT_BOUNDS, formatResult, modelCheck, type ModelCheckBounds } from "../lib/mission/model-check";

const HELP = `usage: node --import tsx scripts/model-check.ts [options]
  --preset full|ci        start from the full bound (default) or the CI bound
  --agents N              agents (priorities cycle critical, important, optional)   [${DEFAULT_BOUNDS.agents}]
  --steps N               steps per agent                                         [${DEFAULT_BOUNDS.steps}]
  --retries N             retries per agent (retry policy)                         [${DEFAULT_BOUNDS.retries}]
  --phases N              phases (agent i in phase i mod N)                        [${DEFAULT_BOUNDS.phases}]
  --crashes N             worker crashes per path                                  [${DEFAULT_BOUNDS.crashes}]
  --pauses N              operator pauses per path                                 [${DEFAULT_BOUNDS.pauses}]
  --objective-checks N    objective checks                                         [${DEFAULT_BOUNDS.objectiveChecks}]
  --no-high-risk --no-compensate --no-timeouts --no-infra    leave a feature out of the model
  --diagnosis             record ADR-0003 diagnoses of failures (as production does; about 2x slower)
  --verify-abstraction    on every merge of states, check both have the same successors (slow)
  --max-states N          give up (FAIL MonotonicProgress) beyond N distinct states
  --strict                fail on the known violations too (KNOWN_VIOLATIONS in lib/mission/model-check.ts)
  --stop-on-first         stop at the first violation
  --json                  print the result as JSON
  --quiet                 no progress lines`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      preset: { type: "string" },
      agents: { type: "string" },
      steps: { type: "string" },
      retries: { type: "string" },
      phases: { type: "string" },
      crashes: { type: "string" },
      pauses: { type: "string" },
      "objective-checks": { type: "string" },
      "no-high-risk": { type: "boolean" },
      "no-compensate": { type: "boolean" },
      "no-timeouts": { type: "boolean" },
      "no-infra": { type: "boolean" },
      diagnosis: { type: "boolean" },
      "verify-abstraction": { type: "boolean" },
      "max-states": { type: "string" },
      "stop-on-first": { type: "boolean" },
      strict: { type: "boolean" },
      json: { type: "boolean" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
} catch (e) {
  console.error(`${(e as Error).message}\n\n${HELP}`);
  process.exit(2);
}
const o = parsed.values;
if (o.help) {
  console.log(HELP);
  process.exit(0);
}

const int = (name: string, v: string | undefined, min: number): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be an integer >= ${min}\n\n${HELP}`);
    process.exit(2);
  }
  return n;
};

if (o.preset && o.preset !== "full" && o.preset !== "ci") {
  console.error(`--preset must be full or ci\n\n${HELP}`);
  process.exit(2);
}
const base: ModelCheckBounds = o.preset === "ci" ? CI_BOUNDS : DEFAULT_BOUNDS;
const bounds: ModelCheckBounds = {
  ...base,
  ...(o.agents !== undefined ? { agents: int("agents", o.agents, 1) } : {}),
  ...(o.steps !== undefined ? { steps: int("steps", o.steps, 1) } : {}),
  ...(o.retries !== undefined ? { retries: int("retries", o.retries, 0) } : {}),
  ...(o.phases !== undefined ? { phases: int("phases", o.phases, 1) } : {}),
  ...(o.crashes !== undefined ? { crashes: int("crashes", o.crashes, 0) } : {}),
  ...(o.pauses !== undefined ? { pauses: int("pauses", o.pauses, 0) } : {}),
  ...(o["objective-checks"] !== undefined ? { objectiveChecks: int("objective-checks", o["objective-checks"], 0) } : {}),
  ...(o["no-high-risk"] ? { highRisk: false } : {}),
  ...(o["no-compensate"] ? { compensate: false } : {}),
  ...(o["no-timeouts"] ? { timeouts: false } : {}),
  ...(o["no-infra"] ? { infra: false } : {}),
  ...(o.diagnosis ? { diagnosis: true } : {}),
} as ModelCheckBounds;

const result = await modelCheck({
  ...bounds,
  verifyAbstraction: o["verify-abstraction"] ?? false,
  stopOnFirstViolation: o["stop-on-first"] ?? false,
  ...(o.strict ? { knownViolations: [] } : {}),
  ...(o["max-states"] !== undefined ? { maxStates: int("max-states", o["max-states"], 1) } : {}),
  log: o.quiet || o.json ? undefined : (line) => console.error(line),
});

if (o.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(formatResult(result));
  console.log(`memory: ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB resident`);
}
process.exit(result.ok ? 0 : 1);
