"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import type { GateView } from "@/lib/views/gate-view";
import { fetchOpenGates } from "../api-client";
import { queryKeys } from "../query-keys";
import { ConnectionIndicator } from "../realtime/connection-indicator";
import { useMissionsLive } from "../realtime/use-missions-live";
import { ThemeToggle } from "./theme-toggle";
import { Brand } from "@/components/ui/brand";
import { can, type Role, type ThemeChoice } from "@/lib/auth/roles";
import * as ui from "@/components/ui/styles";

export interface SidebarUser {
  name: string;
  email: string;
  roles: readonly Role[];
  theme?: ThemeChoice;
}

const NAV_LINK = "flex items-center gap-2.5 rounded-md px-2.5 py-[7px] font-medium text-fg no-underline";

export function Sidebar({ user, initialGates }: { user: SidebarUser; initialGates: GateView[] }) {
  const pathname = usePathname();
  useMissionsLive();
  const { data: gates = initialGates } = useQuery({ queryKey: queryKeys.gates.open(), queryFn: fetchOpenGates, initialData: initialGates });
  const openCount = gates.length;
  const nav = [
    { href: "/missions", label: "Missions", icon: "≡" },
    { href: "/gates", label: "Gates", icon: "‖", badge: openCount },
    { href: "/diagnostics", label: "Diagnostics", icon: "?" },
    { href: "/patterns", label: "Patterns", icon: "→" },
    ...(can(user, "lab.view") ? [{ href: "/lab", label: "Lab", icon: "⚗" }] : []),
    { href: "/library", label: "Library", icon: "▤" },
    { href: "/contributions", label: "Contributions", icon: "✎" },
    { href: "/history", label: "Failure history", icon: "☰" },
    { href: "/governance", label: "Governance", icon: "◎" },
    { href: "/actors", label: "Actors", icon: "◇" },
    { href: "/api-reference", label: "API reference", icon: "{}" },
    ...(can(user, "audit.view") ? [{ href: "/audit", label: "Audit log", icon: "⌘" }] : []),
    ...(can(user, "user.manage") ? [{ href: "/admin/users", label: "Users", icon: "☺" }] : []),
    ...(can(user, "policy.manage") ? [{ href: "/admin/policies", label: "Gate policies", icon: "⚖" }] : []),
    ...(can(user, "policy.manage") ? [{ href: "/admin/authority", label: "Authority policy", icon: "§" }] : []),
    ...(can(user, "webhook.manage") ? [{ href: "/admin/webhooks", label: "Webhooks", icon: "↗" }] : []),
  ];

  return (
    <aside className="sticky top-0 flex h-screen flex-col gap-4 border-r border-border bg-surface px-3 py-4">
      <Brand />
      <nav aria-label="Main">
        <ul className="m-0 grid list-none gap-0.5 p-0">
          {nav.map((n) => {
            const active = pathname === n.href || pathname.startsWith(`${n.href}/`);
            return (
              <li key={n.href}>
                <Link href={n.href} className={ui.cx(NAV_LINK, active ? "bg-running-bg shadow-[inset_3px_0_0_var(--accent)]" : "hover:bg-surface-2")} aria-current={active ? "page" : undefined}>
                  <span className="w-4 text-center text-muted" aria-hidden="true">
                    {n.icon}
                  </span>
                  <span className="flex-1">{n.label}</span>
                  {n.badge !== undefined ? (
                    <span className={ui.countPill(n.badge > 0)} data-testid="gates-badge" data-count={n.badge} aria-label={`${n.badge} open gate${n.badge === 1 ? "" : "s"}`}>
                      {n.badge}
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="mt-auto grid gap-3 px-1">
        <ConnectionIndicator />
        <div className="min-w-0 border-t border-border pt-3" data-testid="current-user">
          <div className="font-semibold">{user.name}</div>
          <div className="truncate text-sm text-muted">{user.email}</div>
          <div className="mt-1.5 flex flex-wrap gap-1">
            {user.roles.map((r) => (
              <span key={r} className={ui.chip}>
                {r}
              </span>
            ))}
          </div>
          <Link href="/account/tokens" className="mt-1.5 inline-block text-sm text-link underline underline-offset-2" data-testid="account-link">
            Account: password, API tokens
          </Link>
        </div>
        <div className="flex flex-wrap gap-1.5 [&>button]:px-2.5 [&>button]:text-[13px]">
          <ThemeToggle saved={user.theme} signedIn />
          <button type="button" className={ui.button("ghost")} onClick={() => void signOut({ callbackUrl: "/login" })} data-testid="sign-out">
            Sign out
          </button>
        </div>
      </div>
    </aside>
  );
}
