import { execFile } from "node:child_process";
import path from "node:path";
import { stubbornCleaner } from "../lib/mission/test-fixtures";
import { expect, screenshots, startMission, test, waitForGate } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

/**
 * Issue 17: a counterfactual that does not hold is marked on the mission page. The recorded model
 * (db/seed/recordings/agents.json "e2e-stubborn-cleaner") proposes deleting a cache outside the workspace,
 * twice; both are refused and the agent uses its two actions up. The explanation says more actions would
 * have led to success (low confidence). `faultline mission explain ID --verify --live` replays it from the
 * mission's trace with four actions, asking the recorded provider for the turns the trace does not hold:
 * the model proposes the same delete, and the agent fails again with no executable action. The page
 * shows the verdict under the counterfactual it judges.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

function verify(id: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL, FAULTLINE_RECORDED_PROVIDER: process.env.E2E_RECORDED_PROVIDER };
    execFile(process.execPath, [path.join(ROOT, "bin", "faultline.mjs"), "mission", "explain", id, "--verify", "--live", "--json"], { cwd: ROOT, timeout: 90_000, env }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test("a counterfactual that does not hold under replay is marked as such on the mission page", async ({ operatorPage: page }) => {
  const id = await startMission(page.request, stubbornCleaner(`cache clear ${Date.now().toString(36)}`));
  const gate = await waitForGate(page.request, id);
  const res = await page.request.post(`/api/v1/gates/${gate}/decision`, { data: { decision: "abort", note: "the cache stays" } });
  expect(res.status(), await res.text()).toBe(200);
  const mission = new MissionPage(page);
  await mission.open(id);
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "FAILED");
  const own = page.getByTestId("explanation-counterfactual");
  await expect(own).toContainText('autonomous.maxActions of "cleaner" above 2');
  await expect(own.getByTestId("counterfactual-check")).toHaveCount(0);

  const r = await verify(id);
  expect(r.code, r.stderr).toBe(1); // one does not hold
  const verdicts = JSON.parse(r.stdout).verifications as Array<{ subject: string; verdict: string }>;
  expect(verdicts.find((v) => v.subject === "mission")?.verdict).toBe("did_not_hold");

  await page.reload();
  const check = own.getByTestId("counterfactual-check");
  await expect(check).toHaveAttribute("data-verdict", "did_not_hold");
  await expect(check).toContainText("Does not hold");
  await expect(check).toContainText('"cleaner" still fails (NO_EXECUTABLE_ACTION)');
  // Each refusal's own counterfactual: without the rule that refused it, another one would (held).
  await expect(page.locator('[data-testid="proposal-row"] [data-testid="counterfactual-check"][data-verdict="held"]')).toHaveCount(2);
  await screenshots(page, "counterfactual-does-not-hold");
});
