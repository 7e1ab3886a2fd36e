import { withConnection } from "../db/client";
import { expect, screenshots, startMission, test } from "./fixtures";

/**
 * The failure-mode library in the browser: searching with filters (kept in the URL), querying as an
 * agent would, an entry with its history and a mission failure that matched it, an admin importing a
 * YAML file (preview, then one new version) and rolling it back, and a non-admin who sees no import.
 */

const shot = (page: import("@playwright/test").Page, name: string) => screenshots(page, `library-${name}`, { fullPage: name !== "browse" });

test("anyone signed in searches the library with filters kept in the URL, and queries it as an agent would", async ({ auditorPage: page }) => {
  await page.goto("/library");
  await expect(page.getByTestId("library-version")).toContainText(/Version \d+/);
  await expect(page.getByTestId("library-import-link")).toHaveCount(0);
  await page.getByTestId("library-q").fill("latch");
  await page.getByRole("group", { name: "Category" }).getByLabel("Constraint").check();
  await page.getByTestId("library-apply").click();
  await expect(page).toHaveURL(/[?&]q=latch/);
  await expect(page).toHaveURL(/category=Constraint/);
  const rows = page.getByTestId("library-row");
  await expect(rows.first()).toBeVisible();
  for (const cat of await rows.getByTestId("row-category").allTextContents()) expect(cat).toBe("Constraint");
  await expect(page.locator('[data-testid="library-row"][data-id="FM-PHY-0001"]')).toBeVisible();

  // A shared URL gives the same view; a popular tag narrows it; a bad filter says why.
  await page.goto("/library?risk=Requires-Oversight&sort=id");
  const total = Number(await page.getByTestId("library-count").getAttribute("data-total"));
  expect(total).toBeGreaterThan(0);
  for (const risk of await page.getByTestId("library-row").getByTestId("risk").evaluateAll((els) => els.map((e) => e.getAttribute("data-value")))) expect(risk).toBe("Requires-Oversight");
  await page.goto("/library");
  await expect(page.getByTestId("library-pager")).toContainText(/Page 1 of \d/);
  await shot(page, "browse");
  await page.getByTestId("library-next").click();
  await expect(page).toHaveURL(/page=2/);
  await page.goto("/library?risk=Severe");
  await expect(page.getByTestId("library-filter-errors")).toContainText("must be one of Low, Medium, High, Requires-Oversight");

  await page.getByTestId("mode-query").click();
  await page.getByTestId("query-observed_symptom").fill("0mm displacement on pull action");
  await page.getByTestId("query-object_class").fill("drawer");
  await page.getByTestId("query-force_applied").fill("within Class B parameters");
  await page.getByTestId("query-environmental_context").fill("indoor, furniture, wood-frame");
  await page.getByTestId("query-submit").click();
  const results = page.getByTestId("query-result");
  await expect(results.first()).toBeVisible();
  expect(await results.first().getAttribute("data-id")).toMatch(/^FM-PHY-/);
  const scores = (await page.getByTestId("match-score").allTextContents()).map(Number);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  await shot(page, "query");
  await page.goto("/library?mode=query&observed_symptom=the+quantum+flux+capacitor+hums+in+B+flat+under+a+full+moon");
  await expect(page.getByTestId("query-abstained")).toBeVisible();
});

test("an entry shows all its fields, its history and the mission failure that matched it", async ({ operatorPage: page }) => {
  const name = `library match ${Date.now()}`;
  const missionId = await startMission(page.request, {
    name,
    objective: "Open the drawer",
    allowedBinaries: ["node"],
    phases: [{ name: "EXECUTION", agents: [{ name: "arm", priority: "critical", steps: [{ tool: "shell", args: { command: "node", args: ["-e", "console.log('ok')"] } }] }] }],
  });
  // library_matches is the orchestrator's projection of library.hypotheses events: one row is written here directly.
  await withConnection(process.env.E2E_DATABASE_URL!, (sql) => sql`insert into library_matches (mission_id, seq, failure_id, rank, match_score, outcome) values (${missionId}, 9999, 'FM-PHY-0001', 1, 0.87, 'confirmed')`);

  await page.goto("/library/FM-PHY-0001");
  await expect(page.getByTestId("entry-title")).toHaveText("Internal latch");
  await expect(page.getByTestId("entry-risk-notes")).toContainText("antique or fragile");
  await expect(page.getByTestId("entry-surface_symptom")).toContainText("0 mm displacement");
  await expect(page.getByTestId("revision").last()).toHaveAttribute("data-change", "added");
  await expect(page.getByTestId("revision").last()).toContainText("Faultline seed");
  const match = page.getByTestId("match-row").filter({ hasText: name });
  await expect(match).toContainText("0.87");
  await expect(match).toContainText("confirmed");
  await expect(page.getByTestId("propose-edit")).toHaveAttribute("href", "/contributions/new?edit=FM-PHY-0001");
  await expect(page.getByTestId("entry-admin")).toHaveCount(0);
  await shot(page, "entry");
  await match.getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/missions/${missionId}$`));

  // A software entry shows its machine-executable probe as code.
  await page.goto("/library/FM-SW-0001");
  await expect(page.getByTestId("entry-probe-action")).toContainText('"command"');
  expect((await page.request.get("/library/FM-NOPE-0001")).status()).toBe(404);
});

test("an admin previews and imports a YAML file as a new version, sees it, and rolls it back; others see no import", async ({ adminPage: page, operatorPage }) => {
  const id = `FM-EE-${String(Date.now() % 1_000_000).padStart(6, "0")}`;
  const yaml = [
    `- failure_id: ${id}`,
    "  title: Wet floor under the wheels",
    "  category: Environmental",
    "  surface_symptom: Mobile base wheel odometry runs ahead of the IMU by 30% on the kitchen floor",
    "  hidden_reality: The floor was just mopped; a water film lowers wheel traction.",
    "  diagnostic_probe: Compare odometry with the IMU over 0.5 m at 0.1 m/s; look for floor reflectance.",
    "  resolution_path: Wait until the floor dries or reroute over the mat; lower acceleration.",
    "  risk_level: Medium",
    "  context_tags: [floor, wet, mobile-base, kitchen]",
    "  source: incident_analysis",
  ].join("\n");

  await page.goto("/library/import");
  // An invalid file first: errors name the entry, id, field and line.
  await page.getByTestId("import-text").fill(yaml.replace("risk_level: Medium", "risk_level: Severe"));
  await page.getByTestId("import-preview").click();
  await expect(page.getByTestId("import-error")).toHaveCount(1);
  await expect(page.getByTestId("import-error")).toContainText(`entry 1 (${id}, line 8), risk_level: must be one of Low`);
  await expect(page.getByTestId("import-apply")).toBeDisabled();

  await page.getByTestId("import-file").setInputFiles({ name: "wet-floor.yaml", mimeType: "application/yaml", buffer: Buffer.from(yaml) });
  await expect(page.getByTestId("import-text")).toHaveValue(yaml);
  await page.getByTestId("import-preview").click();
  await expect(page.getByTestId("count-added")).toHaveAttribute("data-value", "1");
  await expect(page.getByTestId("count-deprecated")).toHaveAttribute("data-value", "0");
  await expect(page.getByTestId("import-preview-result")).toContainText(id);
  await shot(page, "import-preview");
  await page.getByTestId("import-apply").click();
  await expect(page.getByTestId("import-done")).toContainText(/Imported 1 entry as library version \d+/);
  const version = Number((await page.getByTestId("import-done").textContent())!.match(/library version (\d+)/)![1]);

  await page.goto("/library/versions");
  const row = page.locator(`[data-testid="library-version-row"][data-version="${version}"]`);
  await expect(row).toContainText("Current");
  await expect(row.getByTestId("version-summary")).toHaveText("Import of wet-floor.yaml: 1 added (1 entry in the file).");
  await expect(row).toContainText(id);
  // The growth chart counts the imported entry at its version.
  const growth = page.getByTestId("chart-library-growth");
  await expect(growth.locator("svg.recharts-surface").first()).toBeVisible();
  await growth.getByText("Numbers").click();
  const last = growth.locator("tbody tr").last();
  await expect(last.locator("th")).toHaveText(String(version));
  await expect(last.locator("td").nth(1)).toHaveText("1"); // added
  await shot(page, "versions");

  await page.goto(`/library?q=${id}`);
  await expect(page.locator(`[data-testid="library-row"][data-id="${id}"]`)).toContainText("Wet floor under the wheels");

  // Roll back to the version before the import: a new version; the entry is deprecated, not deleted.
  await page.goto("/library/versions");
  await page.locator(`[data-testid="library-version-row"][data-version="${version - 1}"]`).getByTestId("rollback").click();
  // The confirmation says what will happen; Cancel has the focus, so Enter alone never rolls back.
  const confirm = page.getByRole("alertdialog", { name: `Roll the library back to version ${version - 1}?` });
  await expect(confirm).toContainText(`recorded as version ${version + 1}`);
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByTestId("confirm-action").click();
  await expect(page.getByTestId("rollback-result")).toContainText(`the library is now at version ${version + 1}`);
  await page.goto(`/library/${id}`);
  await expect(page.getByTestId("entry-deprecated")).toBeVisible();
  await expect(page.getByTestId("revision").first()).toHaveAttribute("data-change", "deprecated");
  // An admin restores it; the reason is required and goes into the changelog.
  await page.getByTestId("entry-admin-submit").click();
  await expect(page.getByTestId("entry-admin-error")).toContainText("reason: say why in at least 5 characters");
  await page.getByTestId("entry-admin-reason").fill("Seen again in the new kitchen");
  await page.getByTestId("entry-admin-submit").click();
  await expect(page.getByTestId("entry-admin-result")).toContainText(`${id} restored in library version ${version + 2}`);
  await expect(page.getByTestId("entry-deprecated")).toHaveCount(0);
  await expect(page.getByTestId("revision").first()).toHaveAttribute("data-change", "restored");
  await expect(page.getByTestId("revision").first()).toContainText(`Restored ${id}: Seen again in the new kitchen`);

  // Not an admin: no import link, the page refuses, and the export is refused too.
  await operatorPage.goto("/library");
  await expect(operatorPage.getByTestId("library-version")).toBeVisible();
  await expect(operatorPage.getByTestId("library-import-link")).toHaveCount(0);
  await operatorPage.goto("/library/import");
  await expect(operatorPage.getByTestId("import-forbidden")).toContainText("library manage: that needs admin");
  await expect(operatorPage.getByTestId("import-form")).toHaveCount(0);
  expect((await operatorPage.request.get("/api/v1/library/export")).status()).toBe(403);
  await operatorPage.goto("/library/versions");
  await expect(operatorPage.getByTestId("rollback")).toHaveCount(0);
});
