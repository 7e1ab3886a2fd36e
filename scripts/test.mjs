#!/usr/bin/env node
// `npm test`: unit + integration (vitest, real PostgreSQL), then e2e (Playwright, real Chromium).
// Both run even if the first fails; the exit code is non-zero if either failed.
import { spawnSync } from "node:child_process";

const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", env: process.env }).status ?? 1;
const unit = run("npx", ["vitest", "run"]);
const e2e = run("npx", ["playwright", "test"]);
console.log(`\nfaultline test summary: vitest ${unit === 0 ? "passed" : "FAILED"}, playwright ${e2e === 0 ? "passed" : "FAILED"}`);
process.exit(unit || e2e);
