import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { manageView, measures, riskMap } from "@/db/queries/governance";
import { ManageViewSection, MeasuresView, RiskMapView } from "@/components/governance/governance-view";
import { LiveRefresh } from "@/components/realtime/live-refresh";
import { env } from "@/lib/env";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Governance" };

/** RFC 001 §3.7: the NIST AI RMF functions Map, Measure and Manage over Faultline's own evidence. */
export default consolePage({ path: "/governance", permission: "governance.view" }, async () => {
  const db = getDb();
  const e = env();
  const [map, measured, manage] = await Promise.all([riskMap(db), measures(db, 7), manageView(db, { slaMs: e.FAULTLINE_DECISION_SLA_MS, onDutyMs: e.FAULTLINE_ON_DUTY_MS })]);
  return (
    <Page
      title="Governance"
      above={<LiveRefresh />}
      intro={
        <>
          Risk management in the terms of the NIST AI RMF: <a href="#map">Map</a> the risks the system knows, <a href="#measure">Measure</a> how failure and recovery are going, <a href="#manage">Manage</a> what needs a decision now. Every figure
          comes from the event log, the failure history and the library; nothing here is entered by hand.
        </>
      }
    >
      <ul className="m-0 flex list-none flex-wrap gap-x-5 gap-y-2 p-0 [&>li]:text-[14px]" data-testid="gov-summary">
        <li>
          <strong>{manage.openGates.length}</strong> open gate{manage.openGates.length === 1 ? "" : "s"}
          {manage.overdue ? <span className="text-failed"> ({manage.overdue} overdue)</span> : null}
        </li>
        <li>
          <strong>{manage.unresolved.total}</strong> unresolved failure{manage.unresolved.total === 1 ? "" : "s"}
        </li>
        <li>
          <strong>{manage.deciders.filter((d) => d.onDuty).length}</strong> on duty
        </li>
        <li>
          <strong>{map.definitions.filter((d) => d.oversightMatched.length || d.highRiskSteps.length).length}</strong> definition(s) meeting high or oversight risk
        </li>
      </ul>
      <RiskMapView map={map} />
      <MeasuresView measures={measured} />
      <ManageViewSection manage={manage} />
    </Page>
  );
});
