import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listDefinitionNames, listGatePolicies, toPolicyView } from "@/db/queries/gate-policies";
import { getActorNames } from "@/db/queries/views";
import { PoliciesAdmin, type PolicyItem } from "@/components/policies/policies-admin";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Gate policies" };

export default consolePage({ path: "/admin/policies", permission: "policy.manage", refused: { alert: true, testId: "policies-refused" } }, async () => {
  const db = getDb();
  const [rows, definitions] = await Promise.all([listGatePolicies(db), listDefinitionNames(db)]);
  const names = await getActorNames(db, rows.map((r) => r.updatedBy));
  const policies: PolicyItem[] = rows.map((r) => ({ ...toPolicyView(r), updatedByName: names[r.updatedBy] ?? r.updatedBy }));
  return (
    <Page
      title="Gate policies"
      intro={
        <>
          Who may decide a mission&apos;s gates, how many different people must agree, whether the mission&apos;s starter may decide, and what the system chooses when nobody decides in time. The most
          specific policy applies: definition and gate kind, then definition and any kind, then any definition and the kind, then any definition and any kind. A gate keeps the policy it opened under;
          every change here is in the audit log.
        </>
      }
    >
      <PoliciesAdmin policies={policies} definitions={definitions} />
    </Page>
  );
});
