import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getDb } from "@/db/client";
import { HealthBanner } from "@/components/layout/health-banner";
import { Sidebar } from "@/components/layout/sidebar";
import { can } from "@/lib/auth/roles";
import { getPrincipal } from "@/server/auth";
import { loadOpenGates } from "@/server/read-models";
import { MustChangePasswordGate } from "@/components/admin/must-change-password";
import { themeScript } from "@/components/layout/theme-script";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await getPrincipal();
  if (!user) redirect("/login");
  const gates = can(user, "gate.view") ? await loadOpenGates(getDb()) : [];
  return (
    <div className="shell">
      {/* The person's saved theme, applied before the shell paints (this browser's choice may be another person's). */}
      <script dangerouslySetInnerHTML={{ __html: themeScript(user.theme) }} />
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Sidebar user={{ name: user.name, email: user.email, roles: user.roles, theme: user.theme }} initialGates={gates} />
      <main id="main" className="main" tabIndex={-1}>
        <HealthBanner />
        {/* An admin set this password (new user, temporary password): the person chooses their own first. */}
        {user.mustChangePassword ? <MustChangePasswordGate>{children}</MustChangePasswordGate> : children}
      </main>
    </div>
  );
}
