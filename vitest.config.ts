import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{lib,db,server,app,components,scripts,clients,packages}/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./db/test-global-setup.ts", "./server/cli-test-build.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Counts with words stop at their time (80 ms by default) and say "at least": under a full suite's load on 2 CPUs
    // a test's exact count must not depend on it (the stop itself is tested with its own time).
    env: { FAULTLINE_WORDS_COUNT_MS: "60000" },
  },
});
