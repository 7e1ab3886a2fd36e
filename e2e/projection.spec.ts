import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, screenshots, startMission, test, waitForGate } from "./fixtures";
import { gridWorldMission, setTheme } from "./pages/console-pages";

/**
 * Issue 17: the projection modes on the console's mission page (seed 002 FDR-N012), against the real web
 * and worker. The autonomous agent's model is the e2e setup's loopback OpenAI-compatible server (the
 * recorded provider, db/seed/recordings/agents.json "e2e-release-summary": it proposes writing
 * summary-draft.txt, then finish); the worker's flight recorder keeps each turn in event_io, and debug
 * shows the state at a chosen seq with that turn's request and response. The grid-world example draws its
 * board with the domain renderer the terminal uses.
 */

function summaryMission(name: string) {
  return {
    name,
    objective: "An autonomous agent writes the release summary, watched in every projection mode.",
    allowedBinaries: [],
    phases: [
      {
        name: "EXECUTION",
        agents: [{ name: "writer", priority: "critical", autonomous: { goal: "E2E: write the release summary for the operator", tools: ["file"], maxActions: 4, evidence: [{ file_exists: "summary-draft.txt" }], provider: "recorded" } }],
      },
    ],
  };
}

function deployMission(name: string) {
  return { name, objective: "Copy the build to the server", allowedBinaries: ["node"], phases: [{ name: "EXECUTION", agents: [{ name: "deploy", priority: "critical", steps: [{ tool: "shell", args: { command: "scp", args: ["build.tgz", "server:/srv"] } }] }] }] };
}

async function finished(request: APIRequestContext, id: string, status = "SUCCESS"): Promise<void> {
  await expect.poll(async () => (await (await request.get(`/api/v1/missions/${id}`)).json()).finalStatus, { timeout: 30_000 }).toBe(status);
}

async function events(request: APIRequestContext, id: string): Promise<Array<{ seq: number; type: string; payload: Record<string, unknown> }>> {
  return (await (await request.get(`/api/v1/missions/${id}/events?limit=10000`)).json()).events;
}

const modeOf = (page: Page) => new URL(page.url()).searchParams.get("mode");

async function axe(page: Page, label: string, found: string[]) {
  for (const scheme of ["light", "dark"] as const) {
    await setTheme(page, scheme);
    const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    for (const v of r.violations) found.push(`${label} (${scheme}) ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
  }
  await setTheme(page, "light");
}

test("an autonomous mission in each mode: silent hides the run, watch follows it, interactive details each turn, debug shows the state at a seq with the model request and response", async ({ operatorPage: page }) => {
  const id = await startMission(page.request, summaryMission(`projection ${Date.now().toString(36)}`));
  await finished(page.request, id);
  const submitted = (await events(page.request, id)).filter((e) => e.type === "proposal.submitted");
  expect(submitted).toHaveLength(2);
  const found: string[] = [];

  // Interactive, the default: every model turn with provider, model, latency and the call's args.
  await page.goto(`/missions/${id}`);
  await expect(page.getByTestId("mode-interactive")).toHaveAttribute("data-state", "on");
  const calls = page.getByTestId("model-call");
  await expect(calls).toHaveCount(2);
  await expect(calls.first()).toContainText("model (writer recorded/recorded:e2e-release-summary, ");
  await expect(calls.first()).toContainText('call file {"op":"write","path":"summary-draft.txt"');
  await expect(page.getByTestId("timeline")).toBeVisible();
  await axe(page, "interactive", found);

  // Watch: one line a turn; the address says so.
  await page.getByTestId("mode-watch").click();
  await expect.poll(() => modeOf(page)).toBe("watch");
  await expect(calls.first()).toHaveText(/model \(writer\): call file$/);
  await expect(calls.nth(1)).toHaveText(/model \(writer\): call finish$/);
  await expect(page.getByTestId("timeline")).toBeVisible();
  await expect(page.getByTestId("proposal-row")).toHaveCount(2);
  await axe(page, "watch", found);

  // Silent: no live projection — no timeline, proposals or model calls — and the final state.
  await page.getByTestId("mode-silent").click();
  await expect.poll(() => modeOf(page)).toBe("silent");
  await expect(page.getByTestId("silent-notice")).toContainText("It has ended");
  await expect(page.getByTestId("final-status")).toHaveAttribute("data-value", "SUCCESS");
  await expect(page.getByTestId("timeline")).toHaveCount(0);
  await expect(page.getByTestId("proposal-row")).toHaveCount(0);
  await expect(page.getByTestId("model-calls")).toHaveCount(0);
  await expect(page.getByTestId("phase-bar")).toHaveCount(0);
  await axe(page, "silent", found);

  // Debug, by keyboard: the arrows move along the modes (Radix moves focus just after the key, so each move is awaited), Space picks one.
  await page.getByTestId("mode-silent").focus();
  for (const next of ["watch", "interactive", "debug"]) {
    await page.keyboard.press("ArrowRight");
    await expect(page.getByTestId(`mode-${next}`)).toBeFocused();
  }
  await page.keyboard.press("Space");
  await expect.poll(() => modeOf(page)).toBe("debug");
  await expect(calls.first()).toContainText('model (writer) response: {"ok":true');

  // The state at the first turn's seq, with its request (as the model server got it) and its response (as recorded).
  const turn = submitted[0].seq;
  await calls.first().getByTestId("model-call-debug").click();
  await expect.poll(() => new URL(page.url()).searchParams.get("at")).toBe(String(turn));
  const at = page.getByTestId("debug-at");
  await expect(at).toHaveAttribute("data-seq", String(turn));
  await expect(at).toContainText("proposal.submitted");
  await expect(page.getByTestId("debug-changes")).toContainText("proposals[0]:");
  const request = page.getByTestId("debug-request");
  await expect(request).toContainText('"model": "faultline-recorded"');
  await expect(request).toContainText("Goal: E2E: write the release summary for the operator");
  await expect(request).toContainText('"tool_choice": "auto"');
  await expect(page.getByTestId("debug-response")).toContainText('"path": "summary-draft.txt"');
  await expect(page.getByTestId("debug-response")).toContainText('"provider": "recorded"');
  await page.getByTestId("debug-state").locator("..").locator("summary").click();
  await expect(page.getByTestId("debug-state")).toContainText(`"seq": ${turn}`);
  await axe(page, "debug", found);
  await screenshots(page, "mission-debug");

  // A chosen seq: the mission's creation — no readings, the state of a queued mission.
  await page.getByTestId("debug-seq").fill("1");
  await page.getByTestId("debug-seq").press("Enter");
  await expect(at).toHaveAttribute("data-seq", "1");
  await expect(at).toContainText("mission.created");
  await expect(page.getByTestId("debug-write")).toContainText("No engine readings are recorded");
  await expect(page.getByTestId("debug-model-call")).toHaveCount(0);
  // A seq past the end is refused in words, nothing asked.
  await page.getByTestId("debug-seq").fill("99999");
  await expect(page.getByText(/Enter a whole number from 1 to \d+\./)).toBeVisible();

  // The address keeps mode and seq.
  await page.goto(`/missions/${id}?mode=debug&at=${turn}`);
  await expect(page.getByTestId("debug-at")).toHaveAttribute("data-seq", String(turn));
  expect(found).toEqual([]);
});

test("gates: view only in watch, decided in interactive; an auditor may view debug but not decide; a contributor gets no debug", async ({ operatorPage: page, auditorPage, contributorPage }) => {
  const id = await startMission(page.request, deployMission(`projection gate ${Date.now().toString(36)}`));
  await waitForGate(page.request, id);

  await page.goto(`/missions/${id}?mode=watch`);
  await expect(page.getByTestId("gate-panel")).toBeVisible();
  await expect(page.getByTestId("gate-readonly")).toHaveText("Watch shows gates view only: choose Interactive (or Debug) to decide.");
  await expect(page.getByTestId("gate-option-abort")).toHaveCount(0);
  await page.goto(`/missions/${id}?mode=silent`);
  await expect(page.getByTestId("gate-panel")).toHaveCount(0);

  // The auditor: debug's state at a seq, the gate shown, never decidable.
  await auditorPage.goto(`/missions/${id}?mode=debug`);
  await expect(auditorPage.getByTestId("debug-at")).toBeVisible();
  await expect(auditorPage.getByTestId("debug-state")).toBeAttached();
  await expect(auditorPage.getByTestId("gate-readonly")).toBeVisible();
  await expect(auditorPage.getByTestId("gate-option-abort")).toHaveCount(0);

  // The contributor: debug is off in the switch, asked by address it falls back saying why, and the API refuses it.
  await contributorPage.goto(`/missions/${id}?mode=debug`);
  await expect(contributorPage.getByTestId("mode-notice")).toContainText("needs trace.export");
  await expect(contributorPage.getByTestId("mode-debug")).toBeDisabled();
  await expect(contributorPage.getByTestId("debug-panel")).toHaveCount(0);
  const refused = await contributorPage.request.get(`/api/v1/missions/${id}/projection?mode=debug&seq=1`);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toContain("trace export");
  // Bad input to the API: a specific error.
  const bad = await page.request.get(`/api/v1/missions/${id}/projection?mode=loud`);
  expect(bad.status()).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain("must be one of silent, watch, interactive, debug");
  const past = await page.request.get(`/api/v1/missions/${id}/projection?mode=debug&seq=99999`);
  expect(past.status()).toBe(400);
  expect((await past.json()).error.message).toMatch(/choose a seq from 1 to \d+/);

  // Interactive: the operator decides.
  await page.goto(`/missions/${id}?mode=interactive`);
  await page.getByTestId("gate-option-abort").click();
  await finished(page.request, id, "FAILED");
});

test("the grid-world example's board, drawn by its domain renderer: at the end in interactive, at a chosen seq in debug, not in watch", async ({ operatorPage: page }) => {
  const id = await gridWorldMission(page.request);
  const found: string[] = [];

  await page.goto(`/missions/${id}`);
  const board = page.getByTestId("snapshot");
  await expect(board).toHaveAttribute("data-domain", "gridworld");
  await expect(board.locator('[data-cell="5,3"]')).toHaveAttribute("data-glyph", "A");
  await expect(board.locator('[data-cell="2,0"]')).toHaveAttribute("data-glyph", "#");
  await expect(board.locator('[data-cell="0,0"]')).toHaveAttribute("data-glyph", "*");
  await expect(page.getByTestId("snapshot-caption")).toHaveText("agent at (5,3) — at the goal; 6 move(s)");
  await expect(board.getByRole("table", { name: /gridworld board at seq \d+/ })).toBeVisible();
  await axe(page, "gridworld interactive", found);
  await screenshots(page, "mission-gridworld");

  // Watch: the table has no snapshots.
  await page.getByTestId("mode-watch").click();
  await expect(page.getByTestId("snapshot-section")).toHaveCount(0);

  // Debug at the seq of the second move's success: the rover at (0,3).
  const second = (await events(page.request, id)).filter((e) => e.type === "tool.succeeded" && e.payload.agent === "rover")[1];
  await page.goto(`/missions/${id}?mode=debug&at=${second.seq}`);
  const then = page.getByTestId("debug-snapshot");
  await expect(then.locator('[data-cell="0,3"]')).toHaveAttribute("data-glyph", "A");
  await expect(page.getByTestId("debug-snapshot-caption")).toHaveText("agent at (0,3); 2 move(s)");
  await axe(page, "gridworld debug", found);
  expect(found).toEqual([]);
});
