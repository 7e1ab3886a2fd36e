import type { Page } from "@playwright/test";
import { withConnection } from "../db/client";
import { expect, screenshots, test } from "./fixtures";

/**
 * Library curation in the browser (issue 5): a contributor proposes a new failure mode in the form
 * (field errors, preview, similar entries), cannot approve it; a second person, a reviewer, approves it
 * with a reason and it is then returned by the library query. Plus: self-approval refused for a reviewer
 * who is the author, an edit's side-by-side diff, and contributed markup shown as text.
 */

const shoot = (page: Page, name: string) => screenshots(page, `curation-${name}`);

test("a contributor proposes a new entry, cannot approve it; a reviewer approves and the entry is a query result", async ({ contributorPage: c, reviewerPage: r }) => {
  const stamp = Date.now().toString(36);
  const title = `Blocked drain filter ${stamp}`;
  const symptom = "Washing machine door stays locked after the cycle ends, display shows End, handle moves freely but the door does not open and water stands in the drum";

  // The form: submitting empty names each missing field beside it.
  await c.goto("/contributions/new");
  await c.getByTestId("submit-contribution").click();
  await expect(c.getByTestId("error-surface_symptom")).toContainText("at least 10 characters");
  await expect(c.getByTestId("error-category")).toContainText("must be one of Physical");
  await expect(c.getByTestId("form-error")).toContainText("not ready to submit");

  await c.getByTestId("input-title").fill(title);
  await c.getByTestId("input-category").selectOption("State");
  await c.getByTestId("input-risk_level").selectOption("Medium");
  await c.getByTestId("input-surface_symptom").fill(symptom);
  await c.getByTestId("input-hidden_reality").fill("The drain pump filter is blocked (a sock, coins), so water stays in the drum and the door interlock keeps the door locked for safety.");
  await c.getByTestId("input-diagnostic_probe").fill("Open the small service flap at the bottom front, put a tray below and unscrew the drain filter a quarter turn: water flowing out confirms it.");
  await c.getByTestId("input-resolution_path").fill("Drain the water through the emergency hose, clean the filter, refit it, then run a drain/spin cycle; the door unlocks when it finishes.");
  await c.getByTestId("input-risk_notes").fill('<script>window.__xss = "risk"</script> Medium: hot water if opened right after a hot wash.');
  await c.getByTestId("input-context_tags").fill("appliance, washing-machine, door, drain");
  await c.getByTestId("input-source").selectOption("crowdsourcing");
  // The preview reads as the entry will; markup stays text.
  await expect(c.getByTestId("preview").getByTestId("entry-title")).toHaveText(title);
  await expect(c.getByTestId("preview")).toContainText('<script>window.__xss = "risk"</script>');

  // Similar entries with their scores before submitting.
  await c.getByTestId("check-similar").click();
  await expect(c.getByTestId("similar-list")).toBeVisible();
  const first = c.getByTestId("similar-item").first();
  await expect(first).toContainText(/0\.\d\d|1\.00/);
  await expect(first).toHaveAttribute("data-failure-id", /^FM-PHY-/);
  await expect(c.getByTestId("error-surface_symptom")).toHaveCount(0);
  await shoot(c, "form");

  await c.getByTestId("submit-contribution").click();
  await c.waitForURL(/\/contributions\/[0-9a-f-]{36}$/);
  const id = c.url().split("/").pop()!;
  await expect(c.getByTestId("contribution-status")).toHaveAttribute("data-value", "pending");
  // No approve button for the contributor, and the server refuses a forged call.
  await expect(c.getByTestId("review-panel")).toHaveCount(0);
  await expect(c.getByTestId("review-approve")).toHaveCount(0);
  const forged = await c.request.post(`/api/v1/library/contributions/${id}/reviews`, { data: { verdict: "approve", reason: "my own, looks good" } });
  expect(forged.status()).toBe(403);
  // Markup in a comment is text; nothing runs.
  await c.getByTestId("comment-input").fill('<img src=x onerror="window.__xss = 1"> seen on two machines');
  await c.getByTestId("comment-submit").click();
  await expect(c.getByTestId("comment-body").first()).toHaveText('<img src=x onerror="window.__xss = 1"> seen on two machines');
  expect(await c.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();

  // A reviewer (a second person) finds it in the queue and opens it: in review.
  await r.goto("/contributions");
  await expect(r.locator(`[data-testid="queue-row"][data-id="${id}"]`)).toBeVisible();
  await shoot(r, "queue");
  await r.locator(`[data-testid="queue-row"][data-id="${id}"] a`).first().click();
  await expect(r.getByTestId("contribution-status")).toHaveAttribute("data-value", "in_review");
  await expect(r.getByTestId("entry-view")).toContainText('<script>window.__xss = "risk"</script>');
  // A reason is required.
  await r.getByTestId("review-approve").click();
  await expect(r.getByTestId("review-error")).toContainText("A reason is required");
  // A reply in the thread.
  await r.getByTestId("reply").first().click();
  await r.getByTestId("reply-input").fill("Which models? Front loaders only?");
  await r.getByTestId("reply-submit").click();
  await expect(r.locator('[data-testid="comment"] [data-testid="comment"]')).toContainText("Front loaders only?");
  await r.getByTestId("review-reason").fill("Common failure, safe probe and resolution.");
  await r.getByTestId("review-approve").click();
  // The last approval publishes; the page refreshes to the approved contribution, whose review panel is
  // gone (nothing is left to review), so the lasting "Published as" line is what the reviewer reads.
  await expect(r.getByTestId("contribution-status")).toHaveAttribute("data-value", "approved");
  await expect(r.getByTestId("published")).toContainText(/Published as FM-PHY-\d{4} in library version \d+/);
  await expect(r.getByTestId("review-panel")).toHaveCount(0);
  const failureId = (await r.getByTestId("published").locator("a").innerText()).trim();
  await shoot(r, "approved");

  // The library now answers with it.
  const q = await r.request.post("/api/v1/library/query?limit=10", { data: { observed_symptom: symptom, object_class: "washing machine", environmental_context: ["appliance", "door"] } });
  expect(q.status()).toBe(200);
  const body = (await q.json()) as { results: Array<{ failure_id: string; hypothesis: string }> };
  expect(body.results.map((x) => x.failure_id)).toContain(failureId);
  expect(body.results.find((x) => x.failure_id === failureId)?.hypothesis).toBe(title);
});

test("a reviewer who wrote a contribution gets no review buttons and the server refuses their approval (409)", async ({ reviewerPage: r }) => {
  const res = await r.request.post("/api/v1/library/contributions", {
    data: {
      entry: {
        category: "Physical",
        surface_symptom: `Garden gate swings shut by itself ${Date.now()} and will not stay open`,
        hidden_reality: "The hinge posts lean after frost heave, so the gate falls closed under its own weight.",
        diagnostic_probe: "Put a spirit level on the hinge post.",
        resolution_path: "Reset the post plumb, or fit a gate holder.",
        risk_level: "Low",
        context_tags: ["gate", "garden", "hinge"],
      },
    },
  });
  expect(res.status()).toBe(201);
  const { contribution } = (await res.json()) as { contribution: { id: string } };
  await r.goto(`/contributions/${contribution.id}`);
  await expect(r.getByTestId("contribution-status")).toHaveAttribute("data-value", "pending");
  await expect(r.getByTestId("own-contribution")).toContainText("you cannot review or approve it");
  await expect(r.getByTestId("review-approve")).toHaveCount(0);
  const forged = await r.request.post(`/api/v1/library/contributions/${contribution.id}/reviews`, { data: { verdict: "approve", reason: "I wrote it, it is right" } });
  expect(forged.status()).toBe(409);
  expect(((await forged.json()) as { error: { message: string } }).error.message).toMatch(/never review or approve their own/);
});

test("an edit of an existing entry is prefilled and shows a side-by-side diff to the reviewer", async ({ contributorPage: c, reviewerPage: r }) => {
  await c.goto("/contributions/new?edit=FM-SW-0002");
  await expect(c.getByTestId("input-surface_symptom")).not.toHaveValue("");
  await c.getByTestId("input-risk_notes").fill(`High when the fix is a system package on a shared host (${Date.now()}).`);
  await c.getByTestId("input-summary").fill("Risk depends on where the binary gets installed.");
  await c.getByTestId("submit-contribution").click();
  await c.waitForURL(/\/contributions\/[0-9a-f-]{36}$/);
  const id = c.url().split("/").pop()!;
  await r.goto(`/contributions/${id}`);
  await expect(r.locator('[data-testid="diff-row"][data-field="risk_notes"]')).toHaveAttribute("data-changed", "true");
  await expect(r.locator('[data-testid="diff-row"][data-field="surface_symptom"]')).toHaveAttribute("data-changed", "false");
  await expect(r.getByTestId("diff-summary")).toContainText("1 field changed: Risk notes");
  await shoot(r, "diff");
  await r.getByTestId("review-reason").fill("Please name a project-local alternative.");
  await r.getByTestId("review-request_changes").click();
  await expect(r.getByTestId("contribution-status")).toHaveAttribute("data-value", "changes_requested");
  await c.reload();
  await expect(c.getByTestId("edit-contribution")).toContainText("Make changes and resubmit");
});

test("a proven learned pattern is proposed from Patterns, and a mission's novel-failure draft is picked up and submitted", async ({ contributorPage: c }) => {
  const stamp = Date.now().toString(36);
  await withConnection(process.env.E2E_DATABASE_URL!, async (db) => {
    await db.unsafe(`insert into learned_patterns ("when", "then", error_type, tools, successes, failures, confidence) values ($1, 'wait_and_retry_after', 'rate_limited', '{http}', 4, 0, 0.833)`, [`api_${stamp}_rate_limit`]);
    await db.unsafe(`insert into actors (id, kind, display_name) values ('worker:e2e-curation', 'worker', 'worker e2e') on conflict do nothing`);
    await db.unsafe(`insert into library_contributions (kind, status, origin, author_id, entry) values ('new', 'draft', 'novel_failure', 'worker:e2e-curation', $1::jsonb)`, [
      JSON.stringify({ category: "State", surface_symptom: `frobnicate ${stamp} exits 3: quantum flux misaligned`, risk_level: "High", source: "incident_analysis", context_tags: ["shell", "exit-3"] }),
    ]);
  });

  // Patterns → Propose to library → a prefilled draft.
  await c.goto("/patterns");
  const row = c.locator(`[data-testid="proven-pattern"][data-when="api_${stamp}_rate_limit"]`);
  await row.getByTestId("propose-pattern").click();
  await row.getByTestId("proposed-link").click();
  await expect(c.getByTestId("contribution-status")).toHaveAttribute("data-value", "draft");
  await expect(c.getByTestId("contribution-page")).toContainText("Learned pattern");
  await c.getByTestId("edit-contribution").click();
  await expect(c.getByTestId("input-source")).toHaveValue("incident_analysis");
  await c.getByTestId("submit-contribution").click();
  await c.waitForURL(/\/contributions\/[0-9a-f-]{36}$/);
  await expect(c.getByTestId("contribution-status")).toHaveAttribute("data-value", "pending");

  // The mission's draft: listed for everyone, picked up, completed, submitted; the contributor is now its author.
  await c.goto("/contributions?status=draft&mine=0&origin=novel_failure");
  await c.locator('[data-testid="queue-row"]', { hasText: `frobnicate ${stamp}` }).locator("a").first().click();
  await expect(c.getByTestId("contribution-author")).toHaveText("worker e2e");
  await c.getByTestId("edit-contribution").click();
  await expect(c.getByTestId("pickup-note")).toContainText("you become its author");
  await c.getByTestId("submit-contribution").click();
  await expect(c.getByTestId("error-hidden_reality")).toContainText("at least 10 characters");
  await c.getByTestId("input-hidden_reality").fill("The frobnicate calibration file was removed by the last upgrade.");
  await c.getByTestId("input-diagnostic_probe").fill("Check that /etc/frob.conf exists.");
  await c.getByTestId("input-resolution_path").fill("Restore /etc/frob.conf from the package, then re-run the step.");
  await c.getByTestId("submit-contribution").click();
  await c.waitForURL(/\/contributions\/[0-9a-f-]{36}$/);
  await expect(c.getByTestId("contribution-status")).toHaveAttribute("data-value", "pending");
  await expect(c.getByTestId("contribution-author")).toHaveText("Demo contributor");
  await expect(c.getByTestId("comment-body").first()).toContainText("Picked up the draft made by worker e2e");
});
