/**
 * Which rules were confidently wrong at first sight (issue 18): `npm run diagnosis:first-sight -- --batches=4,5,6,7,8,9`.
 *
 * For each collection batch, the rules of the commit that collected it (`COLLECTED_WITH`, the commits the doc names for each
 * batch's first sight) are exported with `git archive` into a temporary directory and run, rules only, on that batch's
 * TUNING half (never a held-out case). The run must reproduce the stored `firstSeen.rules` of every case (it is checked and
 * printed). For every rule answer that was wrong, the rule whose evidence carried it (the winning type's strongest
 * evidence) is counted, beside how often the same rule carried a right answer, and whether the right type had any evidence
 * of its own at all (a "specific signal of another type" that a broad family could have deferred to). `--list` prints the
 * wrong answers one per line (tuning only).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.join(import.meta.dirname, "..");

/** The commit whose rules first saw each batch (docs/diagnosis-benchmark.md, "Confidence" and the batches' first-seen runs). */
export const COLLECTED_WITH: Record<number, string> = {
  2: "d66aadd",
  3: "cc0b426",
  4: "77d83a0^",
  5: "ca7a0ed",
  6: "33a0452",
  7: "2874bb4",
  8: "5ea9ba8",
  9: "5f62110",
  10: "8cf166b",
};

interface Case {
  id: string;
  label: string;
  half: string;
  batch?: number | string;
  firstSeen?: { rules: string; grounded?: boolean };
  input: unknown;
}

interface Row {
  batch: number;
  label: string;
  rules: string;
  grounded: boolean;
  rule: string;
  /** Score of the right type under the old rules (0 when it had no evidence at all). */
  rightTypeScore: number;
  line: string;
}

async function rowsOf(batch: number, cases: Case[], dir: string): Promise<{ rows: Row[]; reproduced: number }> {
  const commit = COLLECTED_WITH[batch];
  if (!commit) throw new Error(`no collecting commit recorded for batch ${batch} (COLLECTED_WITH in scripts/diagnosis-first-sight.ts)`);
  const tree = path.join(dir, `b${batch}`);
  mkdirSync(tree, { recursive: true });
  const tar = execFileSync("git", ["-C", ROOT, "archive", commit, "lib/diagnosis", "lib/tools"], { maxBuffer: 1 << 28 });
  execFileSync("tar", ["-x", "-C", tree], { input: tar });
  const { classify } = (await import(pathToFileURL(path.join(tree, "lib/diagnosis/classify.ts")).href)) as {
    classify: (i: unknown, o: { lexical: boolean }) => { type: string; grounded?: boolean; evidence: Array<{ rule: string }>; scores: Record<string, number> };
  };
  const rows: Row[] = [];
  let reproduced = 0;
  for (const c of cases) {
    const r = classify(c.input, { lexical: false });
    if (r.type === c.firstSeen?.rules) reproduced++;
    if (r.type === "unknown") continue;
    const e = (c.input as { failure: { error: { message: string } } }).failure.error;
    rows.push({ batch, label: c.label, rules: r.type, grounded: c.firstSeen?.grounded ?? !!r.grounded, rule: r.evidence[0]?.rule ?? "?", rightTypeScore: r.scores[c.label] ?? 0, line: e.message.replace(/\s+/g, " ").slice(0, 160) });
  }
  return { rows, reproduced };
}

async function main(): Promise<void> {
  const batches = (process.argv.find((a) => a.startsWith("--batches="))?.slice(10) ?? "4,5,6,7,8,9").split(",").map(Number);
  const all = readFileSync(path.join(ROOT, "bench", "diagnosis-world.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Case)
    .filter((c) => c.half === "tuning");
  // The archived trees resolve their packages (zod) through this checkout's node_modules.
  const dir = mkdtempSync(path.join(os.tmpdir(), "faultline-first-sight-"));
  if (existsSync(path.join(ROOT, "node_modules"))) symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const rows: Row[] = [];
  try {
    for (const b of batches) {
      const cases = all.filter((c) => Number(c.batch ?? 1) === b);
      const got = await rowsOf(b, cases, dir);
      console.log(`batch ${b} (${COLLECTED_WITH[b]}): ${cases.length} tuning cases, the stored firstSeen.rules reproduced for ${got.reproduced}; rule answers ${got.rows.length}, wrong ${got.rows.filter((r) => r.rules !== r.label).length}`);
      rows.push(...got.rows);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const wrong = rows.filter((r) => r.rules !== r.label);
  console.log(`\nrule answers ${rows.length}, wrong ${wrong.length} (grounded ${wrong.filter((r) => r.grounded).length}, weak ${wrong.filter((r) => !r.grounded).length}); the right type had evidence of its own in ${wrong.filter((r) => r.rightTypeScore > 0).length}`);
  const byRule = new Map<string, Row[]>();
  for (const r of wrong) byRule.set(`${r.rules} via ${r.rule}`, [...(byRule.get(`${r.rules} via ${r.rule}`) ?? []), r]);
  console.log("wrong / right answers carried by the rule, the answer and the rule → the right types:");
  for (const [key, rs] of [...byRule].sort((a, b) => b[1].length - a[1].length)) {
    const rule = key.split(" via ")[1];
    const right = rows.filter((r) => r.rule === rule && r.rules === r.label).length;
    console.log(`  ${rs.length} / ${right}  ${key} → ${rs.map((r) => `${r.label}${r.grounded ? "" : " (weak)"}${r.rightTypeScore > 0 ? ` [own ${r.rightTypeScore.toFixed(2)}]` : ""}`).join(", ")}`);
  }
  if (process.argv.includes("--list")) for (const r of wrong) console.log(`  b${r.batch} ${r.label} <- ${r.rules} (${r.rule}${r.grounded ? ", grounded" : ""}): ${r.line}`);
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) await main();
