import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { StandalonePage } from "@/components/layout/standalone";
import { ROLES } from "@/lib/auth/roles";
import { env } from "@/lib/env";
import { getPrincipal } from "@/server/auth";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only same-site paths: never redirect to another origin after sign-in. */
function safeCallback(v: string | string[] | undefined): string {
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.startsWith("/") && !s.startsWith("//") && !s.startsWith("/\\") ? s : "/missions";
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const callbackUrl = safeCallback(sp.callbackUrl);
  if (await getPrincipal()) redirect(callbackUrl);
  const demo = env().FAULTLINE_DEMO_USERS;
  return (
    <StandalonePage>
      <h1 className="text-xl font-[650]">Sign in</h1>
      <p className="text-muted">Missions that fail, explained and decided by people.</p>
      <LoginForm callbackUrl={callbackUrl} />
      {demo ? (
        <section className="border-t border-border pt-3" aria-labelledby="demo-title" data-testid="demo-users">
          <h2 id="demo-title" className="mb-1 text-[13px] font-[650]">Demo accounts</h2>
          <p className="mt-0 mb-1.5 text-sm text-muted">
            Password is <code>faultline-&lt;role&gt;</code>, for example <code>faultline-operator</code>.
          </p>
          <ul className="m-0 grid gap-0.5 pl-[18px] text-[13px]">
            {ROLES.map((r) => (
              <li key={r}>
                <code>{r}@faultline.local</code> <span className="text-muted">/ faultline-{r}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </StandalonePage>
  );
}
