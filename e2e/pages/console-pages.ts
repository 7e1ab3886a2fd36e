import fs from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import YAML from "yaml";
import { startMission, waitForGate } from "../fixtures";

/**
 * Every console page, with something on it: a mission waiting at a gate (e2e does not seed the demo
 * missions) and the library's first entry. Shared by the accessibility sweep and `npm run screenshots`.
 */
export async function consolePages(request: APIRequestContext): Promise<Array<[name: string, url: string]>> {
  const missionId = await startMission(request, {
    name: "Deploy with an unapproved binary",
    objective: "Copy the build to the server",
    allowedBinaries: ["node"],
    phases: [{ name: "EXECUTION", agents: [{ name: "deploy", priority: "critical", steps: [{ tool: "shell", args: { command: "scp", args: ["build.tgz", "server:/srv"] } }] }] }],
  });
  await waitForGate(request, missionId);
  const grid = await gridWorldMission(request);
  const firstEntry = ((await (await request.get(`${process.env.E2E_BASE_URL}/api/v1/library/entries?per=25`)).json()) as { entries: Array<{ failure_id: string }> }).entries[0]?.failure_id;
  return [
    ["missions", "/missions"],
    ["mission", `/missions/${missionId}`],
    // Projection modes (seed 002 FDR-N012): debug's state at a seq; the grid-world domain's board.
    ["mission-debug", `/missions/${missionId}?mode=debug`],
    ["mission-gridworld", `/missions/${grid}`],
    ["gates", "/gates"],
    ["diagnostics", "/diagnostics"],
    ["patterns", "/patterns"],
    ["lab", "/lab"],
    ["library", "/library"],
    ...(firstEntry ? ([["library-entry", `/library/${firstEntry}`]] as Array<[string, string]>) : []),
    ["library-versions", "/library/versions"],
    ["library-import", "/library/import"],
    ["contributions", "/contributions"],
    ["contribution-new", "/contributions/new"],
    ["history", "/history"],
    ["governance", "/governance"],
    ["actors", "/actors"],
    ["api-reference", "/api-reference"],
    ["audit", "/audit"],
    ["admin-users", "/admin/users"],
    ["admin-policies", "/admin/policies"],
    ["admin-authority", "/admin/authority"],
    ["admin-webhooks", "/admin/webhooks"],
    ["account-tokens", "/account/tokens"],
  ];
}

/** Applies a theme the way the console's own script does. */
export async function setTheme(page: import("@playwright/test").Page, scheme: "light" | "dark"): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate((t) => {
    document.documentElement.dataset.theme = t;
    document.documentElement.style.colorScheme = t;
  }, scheme);
}

/** examples/gridworld.yaml started and run to its end (the rover at the goal); returns its id. */
export async function gridWorldMission(request: APIRequestContext): Promise<string> {
  const definition = YAML.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../examples/gridworld.yaml"), "utf8")) as Record<string, unknown>;
  const id = await startMission(request, definition);
  await expect.poll(async () => (await (await request.get(`${process.env.E2E_BASE_URL}/api/v1/missions/${id}`)).json()).finalStatus, { timeout: 30_000 }).toBe("SUCCESS");
  return id;
}
