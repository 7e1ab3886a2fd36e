import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listSuiteRuns } from "@/db/queries/lab";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";
import { LabRunsView } from "@/components/lab/runs-table";

export const metadata: Metadata = { title: "Lab" };
export const dynamic = "force-dynamic";

export default consolePage({ path: "/lab", permission: "lab.view", refused: { testId: "lab-refused" } }, async () => {
  const runs = await listSuiteRuns(getDb());
  return (
    <Page
      title="Lab"
      intro={
        <>
          Suite runs recorded by <code>faultline lab run</code>: scenario missions run headless through the real engine with injected faults, outages, crashes and a scripted operator, many times from one seed. Each
          has seed 003&rsquo;s recovery metrics and seed 002&rsquo;s governance metrics with 95% confidence intervals, and every run&rsquo;s trace.
        </>
      }
    >
      <LabRunsView initial={JSON.parse(JSON.stringify(runs))} />
    </Page>
  );
});
