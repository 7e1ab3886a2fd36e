import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getDefaultPolicy } from "@/db/queries/authority";
import { PolicyEditor } from "@/components/authority/policy-editor";
import { describeMatchers } from "@/lib/authority/rules";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { getPrincipal } from "@/server/auth";

export const metadata: Metadata = { title: "Authority policy" };
export const dynamic = "force-dynamic";

/** The admin's default authority policy (issue 14): the rules every proposal meets after its mission's own. */
export default async function AuthorityPolicyPage() {
  const user = await getPrincipal();
  if (!user) redirect("/login?callbackUrl=/admin/authority");
  if (!can(user, "policy.manage")) {
    return (
      <p className="notice" role="alert">
        {describeMissingPermission(user, "policy.manage")}
      </p>
    );
  }
  const policy = await getDefaultPolicy(getDb());
  return (
    <div className="stack">
      <header className="page-head">
        <div>
          <h1 className="page-title">Authority policy</h1>
          <p className="muted">
            Every action an autonomous agent proposes meets its mission&apos;s rules, then these. Deny wins over hold, hold over allow; a tool or binary outside the agent&apos;s allowlists is denied anyway.
            Each version is kept, and publishing is in the audit log.
          </p>
        </div>
      </header>
      <section className="stack-tight" aria-labelledby="policy-title">
        <h2 id="policy-title" className="section-title">
          In force: {policy.version === 0 ? "Faultline's built-in default" : `version ${policy.version}`}
        </h2>
        {policy.note ? <p className="muted small">{policy.note}</p> : null}
        <div className="table-wrap">
          <table className="table" data-testid="policy-rules">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Effect</th>
                <th scope="col">Matches</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {policy.rules.map((r, i) => (
                <tr key={r.id ?? i}>
                  <td>
                    <code>{r.id ?? `#${i + 1}`}</code>
                  </td>
                  <td>
                    <span className={`badge ${r.effect === "deny" ? "tone-failed" : r.effect === "hold" ? "tone-paused" : "tone-success"}`}>{r.effect}</span>
                  </td>
                  <td className="small">
                    {describeMatchers(r)}
                  </td>
                  <td className="small">{r.reason ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <PolicyEditor rules={policy.rules} />
    </div>
  );
}
