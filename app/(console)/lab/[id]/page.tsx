import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getSuiteRun, labTracePath } from "@/db/queries/lab";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { formatUtc } from "@/components/ui/format-utc";
import { MetricsChart, PassChart } from "@/components/lab/lab-charts";
import { meanText, rateText } from "@/components/lab/format";
import { LabRunProgress } from "@/components/lab/run-progress";
import { LabStatusBadge } from "@/components/lab/runs-table";
import { ScenariosTable, type ScenarioRowView } from "@/components/lab/scenarios-table";
import * as ui from "@/components/ui/styles";

export const metadata: Metadata = { title: "Lab run" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export default consolePage<Props>({ path: async ({ params }) => `/lab/${(await params).id}`, permission: "lab.view", refused: { testId: "lab-refused" } }, async (_user, { params }) => {
  const { id } = await params;
  const run = await getSuiteRun(getDb(), id);
  if (!run) notFound();
  const report = run.report;
  const traceOf = new Map(run.traces.map((t) => [`${t.scenario}\u0000${t.repeat}`, { href: labTracePath(run.id, t.scenario, t.repeat), sha256: t.sha256, bytes: t.bytes }]));
  const scenarios: ScenarioRowView[] = (report?.scenarios ?? []).map((s) => ({
    name: s.name,
    description: s.description,
    faults: s.faults,
    expect: s.expect,
    runs: s.runs,
    passed: s.passed,
    pass1: s.passHatK[0] ?? 0,
    passK: s.passHatK[s.passHatK.length - 1] ?? 0,
    results: s.results.map((r) => ({ repeat: r.repeat, passed: r.passed, finalStatus: r.finalStatus, why: r.why, trace: traceOf.get(`${s.name}\u0000${r.repeat}`) ?? null })),
  }));
  // While recording (or after a stop), the runs recorded so far are listed from their traces.
  const partial: ScenarioRowView[] = report
    ? []
    : [...new Set(run.traces.map((t) => t.scenario))].map((name) => {
        const ts = run.traces.filter((t) => t.scenario === name);
        return { name, description: null, faults: [], expect: "—", runs: ts.length, passed: ts.filter((t) => t.passed).length, pass1: 0, passK: 0, results: ts.map((t) => ({ repeat: t.repeat, passed: t.passed, finalStatus: t.finalStatus, why: null, trace: traceOf.get(`${name}\u0000${t.repeat}`) ?? null })) };
      });
  const m = report?.metrics;
  return (
    <Page
      above={<Breadcrumb trail={[{ href: "/lab", label: "Lab" }]}>{run.suiteName}</Breadcrumb>}
      title={
        <span data-testid="lab-run-title">
          {run.suiteName} · seed {run.seed} · {run.repeat} repeat{run.repeat === 1 ? "" : "s"}
        </span>
      }
      intro={
        <>
          <LabStatusBadge run={run} /> Started {formatUtc(run.startedAt)} by <code>{run.startedBy}</code>
          {run.finishedAt ? `, ended ${formatUtc(run.finishedAt)}` : ""}. {run.suiteFile ? <>Suite file <code>{run.suiteFile}</code>, </> : null}digest <code title={run.suiteDigest}>{run.suiteDigest.slice(0, 12)}</code>.
        </>
      }
    >
      {run.status === "running" ? <LabRunProgress id={run.id} done={run.done} total={run.total} /> : null}
      {run.status === "failed" ? (
        <p className={ui.banner.error} role="alert" data-testid="lab-run-error">
          This suite run stopped after {run.done} of {run.total} runs, before its report: {run.error ?? "no reason was recorded"}. The traces of the runs that finished are below; run the suite again for a report.
        </p>
      ) : null}
      {m && report ? (
        <>
          <dl className={ui.facts} data-testid="lab-run-facts">
            <div>
              <dt>Runs passed</dt>
              <dd>
                {run.passed}/{run.done}
              </dd>
            </div>
            <div>
              <dt>Iterations to recovery</dt>
              <dd>{meanText(m.iterationsToRecovery)}</dd>
            </div>
            <div>
              <dt>Failure reasons</dt>
              <dd>{Object.entries(m.failureReasons).map(([k, n]) => `${k} ${n}`).join(", ") || "none"}</dd>
            </div>
            <div>
              <dt>Necessity levels</dt>
              <dd>{Object.entries(m.necessityLevels).map(([k, n]) => `level ${k}: ${n}`).join(", ")}</dd>
            </div>
            <div>
              <dt>Recovery success</dt>
              <dd>{rateText(m.recoverySuccessRate)}</dd>
            </div>
          </dl>
          <div className={ui.chartGrid}>
            <MetricsChart metrics={m} />
            <PassChart scenarios={report.scenarios} repeat={report.repeat} />
          </div>
        </>
      ) : null}
      <h2 className="m-0 text-base font-semibold">Scenarios</h2>
      <ScenariosTable scenarios={report ? scenarios : partial} repeat={run.repeat} />
    </Page>
  );
});
