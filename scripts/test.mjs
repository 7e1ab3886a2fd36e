#!/usr/bin/env node
// `npm test`: unit + integration (vitest, real PostgreSQL), the default lab suite (docs/lab.md: headless
// scenario runs through the real engine, a few seconds; it prints its metrics table), the chaos suite
// (real processes and a real PostgreSQL that it breaks on purpose), then e2e (Playwright, real Chromium).
// Every part runs even if an earlier one failed; the exit code is non-zero if any failed. The summary at
// the end names every failed test (from each runner's JSON report), so a CI log cut to its tail still says
// what broke.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromiumMissing } from "../e2e/chromium.mjs";

// The browser is checked first: without it the e2e part could only fail, after half an hour of the others.
const noBrowser = chromiumMissing();
if (noBrowser) {
  console.error(noBrowser);
  process.exit(1);
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), "faultline-test-"));
const labTraces = path.join(os.tmpdir(), "faultline-lab-default");
const vitestJson = (name) => ["--reporter=default", "--reporter=json", `--outputFile.json=${path.join(reports, `${name}.json`)}`];

/** Failed tests' names from a vitest JSON report (jest's shape) or a Playwright JSON report. */
function failedTests(name) {
  const file = path.join(reports, `${name}.json`);
  if (!fs.existsSync(file)) return [];
  try {
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    if (Array.isArray(report.testResults)) {
      return report.testResults.flatMap((f) =>
        (f.assertionResults ?? []).filter((t) => t.status === "failed").map((t) => `${path.relative(process.cwd(), f.name)} › ${t.fullName ?? t.title}`)
          .concat(f.status === "failed" && !(f.assertionResults ?? []).some((t) => t.status === "failed") ? [`${path.relative(process.cwd(), f.name)} (the file failed: ${String(f.message ?? "").split("\n")[0]})`] : []),
      );
    }
    const out = [];
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        if (spec.tests?.some((t) => t.status === "unexpected")) out.push(`e2e/${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}`);
      }
      for (const child of suite.suites ?? []) walk(child, child.file === suite.file ? [...titles, child.title] : titles);
    };
    for (const suite of report.suites ?? []) walk(suite, []);
    return out;
  } catch {
    return [`(the ${name} report could not be read: ${file})`];
  }
}

const parts = [
  ["vitest", "npx", ["vitest", "run", ...vitestJson("vitest")], {}],
  ["lab", process.execPath, ["bin/faultline.mjs", "lab", "run", "lab/default.yaml", "--seed", "1", "--repeat", "3", "--traces", labTraces], {}],
  ["chaos", "npx", ["vitest", "run", "--config", "chaos/vitest.config.ts", ...vitestJson("chaos")], {}],
  ["playwright", "npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, "playwright.json") }],
];
const results = parts.map(([name, cmd, args, env]) => [name, spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1]);
console.log(`\nfaultline test summary: ${results.map(([name, code]) => `${name} ${code === 0 ? "passed" : "FAILED"}`).join(", ")}`);
for (const [name, code] of results) {
  if (code === 0) continue;
  for (const test of failedTests(name)) console.log(`  ${name} failed: ${test}`);
}
process.exit(results.some(([, code]) => code !== 0) ? 1 : 0);
