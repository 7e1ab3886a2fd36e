#!/usr/bin/env node
// `npm test`: unit + integration (vitest, real PostgreSQL), the chaos suite (real processes and a real
// PostgreSQL that it breaks on purpose), then e2e (Playwright, real Chromium). Every part runs even if
// an earlier one failed; the exit code is non-zero if any failed.
import { spawnSync } from "node:child_process";

const run = (args) => spawnSync("npx", args, { stdio: "inherit", env: process.env }).status ?? 1;
const parts = [
  ["vitest", ["vitest", "run"]],
  ["chaos", ["vitest", "run", "--config", "chaos/vitest.config.ts"]],
  ["playwright", ["playwright", "test"]],
];
const results = parts.map(([name, args]) => [name, run(args)]);
console.log(`\nfaultline test summary: ${results.map(([name, code]) => `${name} ${code === 0 ? "passed" : "FAILED"}`).join(", ")}`);
process.exit(results.some(([, code]) => code !== 0) ? 1 : 0);
