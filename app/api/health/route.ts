import { getServerSession } from "next-auth";
import { authOptions, getPrincipal } from "@/server/auth";
import { processHealthMonitor, type HealthReport } from "@/server/health";

export const dynamic = "force-dynamic";

/**
 * GET /api/health — FAILURE_MODEL's HealthStatus plus workers, `overall` and `problems`.
 *
 * Status code: 200 when overall is healthy or degraded, 503 when unavailable (load balancers and
 * uptime checks need only the code).
 *
 * Who sees what (decided here):
 * - no session: `{ overall, checkedAt }` only — a liveness/readiness probe, no sign-in needed, and
 *   nothing about the infrastructure (no provider names, hosts, paths or error texts) leaks out;
 * - any signed-in user (every role may view missions): the full report. The session is read from
 *   the database when possible, else from its signed JWT alone, so the console still learns *why*
 *   while the database itself is down.
 *
 * The report comes from the process's health monitor (checks every FAULTLINE_HEALTH_INTERVAL_MS);
 * the first request starts it.
 */
async function signedIn(): Promise<boolean> {
  try {
    if (await getPrincipal()) return true;
  } catch {
    // the database is down: fall back to the signed session cookie
  }
  try {
    const session = await getServerSession(authOptions);
    return !!session?.user?.id;
  } catch {
    return false;
  }
}

export async function GET(): Promise<Response> {
  let report: HealthReport;
  try {
    report = await processHealthMonitor().current();
  } catch (e) {
    console.error("[api health]", e);
    return Response.json(
      { overall: "unavailable", checkedAt: new Date().toISOString(), problems: ["The health check itself failed; see the web process log."] },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
  const status = report.overall === "unavailable" ? 503 : 200;
  const headers = { "Cache-Control": "no-store" };
  if (!(await signedIn())) return Response.json({ overall: report.overall, checkedAt: report.checkedAt }, { status, headers });
  return Response.json(report, { status, headers });
}
