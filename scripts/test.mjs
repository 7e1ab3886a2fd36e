#!/usr/bin/env node
// `npm test`: unit + integration (vitest, real PostgreSQL), the default lab suite (docs/lab.md: headless
// scenario runs through the real engine, a few seconds; it prints its metrics table), the chaos suite
// (real processes and a real PostgreSQL that it breaks on purpose), then e2e (Playwright, real Chromium).
// Every part runs even if an earlier one failed; the exit code is non-zero if any failed.
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";

const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", env: process.env }).status ?? 1;
const labTraces = path.join(os.tmpdir(), "faultline-lab-default");
const parts = [
  ["vitest", "npx", ["vitest", "run"]],
  ["lab", process.execPath, ["bin/faultline.mjs", "lab", "run", "lab/default.yaml", "--seed", "1", "--repeat", "3", "--traces", labTraces]],
  ["chaos", "npx", ["vitest", "run", "--config", "chaos/vitest.config.ts"]],
  ["playwright", "npx", ["playwright", "test"]],
];
const results = parts.map(([name, cmd, args]) => [name, run(cmd, args)]);
console.log(`\nfaultline test summary: ${results.map(([name, code]) => `${name} ${code === 0 ? "passed" : "FAILED"}`).join(", ")}`);
process.exit(results.some(([, code]) => code !== 0) ? 1 : 0);
