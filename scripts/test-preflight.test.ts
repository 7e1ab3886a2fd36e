import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(path.join(os.tmpdir(), "faultline-preflight-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm test`'s runner with only the browser changed; its output and exit code. */
const runTests = (chromium: string) =>
  spawnSync(process.execPath, ["scripts/test.mjs"], { env: { ...process.env, CHROMIUM_PATH: chromium }, encoding: "utf8", timeout: 20_000 });

describe("npm test without a browser", () => {
  it("stops at once, saying where it looked and how to install one, before running any part", () => {
    const r = runTests(path.join(dir, "no-such-chromium"));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`the end-to-end tests need Chromium at ${path.join(dir, "no-such-chromium")}, but there is no file there.`);
    expect(r.stderr).toContain("apt-get install -y chromium");
    expect(r.stderr).toContain("CHROMIUM_PATH");
    expect(r.stdout).not.toContain("faultline test summary"); // no part ran
  });

  it("says so when the file is there but cannot be run", () => {
    const file = path.join(dir, "not-executable");
    writeFileSync(file, "");
    chmodSync(file, 0o644);
    const r = runTests(file);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/but it cannot be run \(EACCES\)/);
  });
});
