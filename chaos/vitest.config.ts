import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The chaos suite: `npx vitest run --config chaos/vitest.config.ts` (npm run test:chaos).
 * Real worker processes, real PostgreSQL, loopback servers. Files run one after another: the
 * scenarios measure leases and timeouts, and two of them at once on two cores would only measure
 * each other.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "..") } },
  test: {
    root: path.resolve(import.meta.dirname, ".."),
    include: ["chaos/**/*.chaos.test.ts"],
    environment: "node",
    globalSetup: ["./chaos/global-setup.ts"],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
