import { expect, type Page } from "@playwright/test";
import type { GateDecision } from "../../lib/mission/types";

/** Page object for /missions/[id]. */
export class MissionPage {
  constructor(readonly page: Page) {}

  async open(id: string) {
    await this.page.goto(`/missions/${id}`);
    await expect(this.page.getByTestId("phase-bar")).toBeVisible();
  }

  gate() {
    return this.page.getByTestId("gate-panel");
  }

  /** An option of the open gate: its button, label and description. */
  option(action: GateDecision) {
    return this.gate().locator("li", { has: this.page.getByTestId(`gate-option-${action}`) });
  }

  finalStatus() {
    return this.page.getByTestId("final-status");
  }

  /** The seqs shown in the timeline, in order. */
  async timelineSeqs(): Promise<number[]> {
    return this.page.getByTestId("timeline-event").evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-seq"))));
  }

  async choose(action: GateDecision, note?: string) {
    const gate = this.gate();
    if (note) await gate.getByLabel(/Note/).fill(note);
    await gate.getByTestId(`gate-option-${action}`).click();
  }
}
