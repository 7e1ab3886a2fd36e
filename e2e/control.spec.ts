import { expect, heldStep, startMission, test } from "./fixtures";
import { MissionPage } from "./pages/mission-page";

const node = (code: string) => ({ tool: "shell", args: { command: "node", args: ["-e", code] } });

test("a high-risk step waits at an approval gate; Approve (key y) runs it and the mission ends SUCCESS", async ({ operatorPage: page }) => {
  const id = await startMission(page.request, {
    name: `approval ${Date.now()}`,
    objective: "drop the staging table only with approval",
    allowedBinaries: ["node"],
    phases: [{ name: "EXECUTION", agents: [{ name: "dba", priority: "critical", steps: [node("console.log('backup done')"), { ...node("console.log('dropped')"), highRisk: true }] }] }],
  });
  const mission = new MissionPage(page);
  await mission.open(id);
  await expect(mission.gate()).toContainText("High-risk step 2 of agent “dba” needs approval", { timeout: 20_000 });
  await expect(mission.option("approve")).toContainText("Run step 2");
  await mission.gate().focus();
  await page.keyboard.press("y");
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 20_000 });
});

test("pause stops the mission at the next step boundary; resume continues it to the end", async ({ operatorPage: page }) => {
  // The first step runs until the test releases it (a file appears): the pause lands while it is in flight, on any machine.
  const first = heldStep("one");
  const id = await startMission(page.request, {
    name: `pause ${Date.now()}`,
    objective: "a step in flight, then another",
    allowedBinaries: ["node"],
    phases: [{ name: "EXECUTION", agents: [{ name: "slow", priority: "critical", steps: [first.step, node("console.log('two')")] }] }],
  });
  const mission = new MissionPage(page);
  await mission.open(id);
  await expect(page.getByTestId("timeline-event").filter({ hasText: "step.started" })).toHaveCount(1, { timeout: 20_000 });
  await page.getByTestId("pause-mission").click();
  await expect(page.getByTestId("pause-banner")).toContainText("Paused by an operator");
  first.release();
  // The step in flight still records its result; the next one does not start.
  await expect(page.getByTestId("timeline-event").filter({ hasText: "tool.succeeded" })).toHaveCount(1, { timeout: 10_000 });
  await page.getByTestId("resume-mission").click();
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 20_000 });
  // The log proves it, with no waiting on a clock: the second step started only after the resume.
  const { events } = (await (await page.request.get(`/api/v1/missions/${id}/events`)).json()) as { events: Array<{ seq: number; type: string }> };
  const seqOf = (type: string, nth = 0) => events.filter((e) => e.type === type)[nth]?.seq ?? -1;
  expect(seqOf("mission.paused")).toBeLessThan(seqOf("tool.succeeded"));
  expect(seqOf("step.started", 1)).toBeGreaterThan(seqOf("mission.resumed"));
});
