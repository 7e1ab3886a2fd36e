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
    <div className="grid min-h-screen grid-cols-[224px_minmax(0,1fr)] max-[1280px]:grid-cols-[196px_minmax(0,1fr)] max-[1101px]:grid-cols-[168px_minmax(0,1fr)]">
      {/* The person's saved theme, applied before the shell paints (this browser's choice may be another person's). */}
      <script dangerouslySetInnerHTML={{ __html: themeScript(user.theme) }} />
      <a href="#main" className="absolute -left-[9999px] top-2 z-10 rounded-md bg-surface px-2.5 py-1.5 focus:left-2">
        Skip to content
      </a>
      <Sidebar user={{ name: user.name, email: user.email, roles: user.roles, theme: user.theme }} initialGates={gates} />
      <main id="main" className="min-w-0 max-w-[1440px] px-7 pt-5 pb-12 focus:outline-none max-[1280px]:px-[18px] max-[1280px]:pt-4 max-[1280px]:pb-10 max-[1101px]:px-3.5 max-[1101px]:pt-3.5 max-[1101px]:pb-8" tabIndex={-1}>
        <HealthBanner />
        {/* An admin set this password (new user, temporary password): the person chooses their own first. */}
        {user.mustChangePassword ? <MustChangePasswordGate>{children}</MustChangePasswordGate> : children}
      </main>
    </div>
  );
}
