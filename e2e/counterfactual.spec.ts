import { execFile } from "node:child_process";
import path from "node:path";
import { expect, startMission, test, waitForGate } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

/**
 * Issue 17: a counterfactual that does not hold is marked on the mission page. The recorded model
 * (db/seed/recordings/agents.json "e2e-count-lines") proposes `wc`, which is not on the allowlist; the
 * authority's counterfactual says adding wc would get it approved, but the mission's rule holds wc for a
 * person. `faultline mission explain ID --verify` replays it from the mission's trace and stores the
 * verdict; the page shows it under the counterfactual it judges.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

function countLines(name: string) {
  return {
    name,
    objective: "Count the lines of the release notes; a person reviews any count.",
    allowedBinaries: [],
    rules: [{ id: "wc-needs-a-person", effect: "hold", tool: "shell", binary: "wc", reason: "A person reviews any count." }],
    phases: [{ name: "EXECUTION", agents: [{ name: "counter", priority: "critical", autonomous: { goal: "E2E: count the lines of the release notes in the workspace.", tools: ["shell"], maxActions: 1, provider: "recorded" } }] }],
  };
}

function verify(id: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, "bin", "faultline.mjs"), "mission", "explain", id, "--verify", "--json"], { cwd: ROOT, timeout: 90_000, env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test("a counterfactual that does not hold under replay is marked as such on the mission page", async ({ operatorPage: page }) => {
  const id = await startMission(page.request, countLines(`line count ${Date.now().toString(36)}`));
  await waitForGate(page.request, id);
  const mission = new MissionPage(page);
  await mission.open(id);
  const row = page.getByTestId("proposal-row").first();
  await expect(row.getByTestId("proposal-counterfactual")).toContainText('allowedBinaries: add "wc"');
  await expect(row.getByTestId("counterfactual-check")).toHaveCount(0);

  const r = await verify(id);
  expect(r.code, r.stderr).toBe(1); // one does not hold
  expect(JSON.parse(r.stdout).verifications.map((v: { verdict: string }) => v.verdict).sort()).toEqual(["did_not_hold", "undetermined"]);

  await page.reload();
  const check = row.getByTestId("counterfactual-check");
  await expect(check).toHaveAttribute("data-verdict", "did_not_hold");
  await expect(check).toContainText("Does not hold");
  await expect(check).toContainText("pending, not approved (rule:wc-needs-a-person)");
  // The mission waits for a person: its own counterfactual (a confirmation) is one no replay can supply.
  const own = page.getByTestId("explanation-counterfactual").getByTestId("counterfactual-check");
  await expect(own).toHaveAttribute("data-verdict", "undetermined");
  await expect(own).toContainText("which a replay cannot supply");
});
