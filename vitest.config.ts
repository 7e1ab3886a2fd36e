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
  },
});
