import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listPatterns } from "@/db/queries/learning";
import { PatternsTable } from "@/components/diagnosis/patterns-table";
import { ProposePatterns } from "@/components/library-curation/propose-pattern";
import { can } from "@/lib/auth/roles";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Learned patterns" };

export default consolePage({ path: "/patterns", permission: "mission.view" }, async (user) => {
  const rows = await listPatterns(getDb());
  const patterns = rows.map((r) => ({ id: r.id, when: r.when, then: r.then, errorType: r.errorType, successes: r.successes, failures: r.failures, confidence: r.confidence, threshold: r.threshold, enabled: r.enabled, lastOutcome: r.lastOutcome, lastMissionId: r.lastMissionId, updatedAt: new Date(r.updatedAt).toISOString() }));
  return (
    <Page
      title="Learned patterns"
      intro={
        <>
          &ldquo;When this failure, then this recovery&rdquo;, learned from every recovery&rsquo;s outcome (failed ones too). A pattern whose confidence reaches its threshold is applied by the fast path, without full
          reflection, when a mission&rsquo;s policy is <code>recovery: auto</code>. Confidence is the smoothed success rate (successes + 1) / (attempts + 2).
        </>
      }
    >
      {!can(user, "pattern.manage") ? (
        <p className={ui.notice} data-testid="patterns-readonly">
          You can view patterns; disabling or deleting one needs the admin role.
        </p>
      ) : null}
      <PatternsTable patterns={patterns} canManage={can(user, "pattern.manage")} />
      {can(user, "library.contribute") ? <ProposePatterns patterns={patterns.filter((p) => p.confidence >= p.threshold).map((p) => ({ id: p.id, when: p.when, then: p.then, confidence: p.confidence, threshold: p.threshold }))} /> : null}
    </Page>
  );
});
