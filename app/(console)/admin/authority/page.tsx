import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { getDefaultPolicy } from "@/db/queries/authority";
import { PolicyEditor } from "@/components/authority/policy-editor";
import { CellsTable, type CellColumn } from "@/components/ui/data-table";
import { describeMatchers } from "@/lib/authority/rules";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Authority policy" };

const RULE_COLUMNS: CellColumn[] = [
  { id: "rule", header: "Rule" },
  { id: "effect", header: "Effect" },
  { id: "matches", header: "Matches", className: "text-sm" },
  { id: "reason", header: "Reason", className: "text-sm" },
];

/** The admin's default authority policy (issue 14): the rules every proposal meets after its mission's own. */
export default consolePage({ path: "/admin/authority", permission: "policy.manage", refused: { alert: true } }, async () => {
  const policy = await getDefaultPolicy(getDb());
  return (
    <Page
      title="Authority policy"
      intro={
        <>
          Every action an autonomous agent proposes meets its mission&apos;s rules, then these. Deny wins over hold, hold over allow; a tool or binary outside the agent&apos;s allowlists is denied anyway.
          Each version is kept, and publishing is in the audit log.
        </>
      }
    >
      <section className="grid gap-2" aria-labelledby="policy-title">
        <h2 id="policy-title" className="text-[15px] font-[650]">
          In force: {policy.version === 0 ? "Faultline's built-in default" : `version ${policy.version}`}
        </h2>
        {policy.note ? <p className="text-muted text-sm">{policy.note}</p> : null}
        <CellsTable
          label="Rules in force, in the order they are met"
          testId="policy-rules"
          urlKey={null}
          columnMenu={false}
          columns={RULE_COLUMNS}
          empty="No rules."
          rows={policy.rules.map((r, i) => ({
            key: r.id ?? String(i),
            cells: {
              rule: <code>{r.id ?? `#${i + 1}`}</code>,
              effect: <span className={ui.badge(r.effect === "deny" ? "failed" : r.effect === "hold" ? "paused" : "success")}>{r.effect}</span>,
              matches: describeMatchers(r),
              reason: r.reason ?? "",
            },
          }))}
        />
      </section>
      <PolicyEditor rules={policy.rules} />
    </Page>
  );
});
