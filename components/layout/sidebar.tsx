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
    <aside className="sidebar">
      <Brand />
      <nav aria-label="Main" className="nav">
        <ul>
          {nav.map((n) => {
            const active = pathname === n.href || pathname.startsWith(`${n.href}/`);
            return (
              <li key={n.href}>
                <Link href={n.href} className={`nav-link${active ? " is-active" : ""}`} aria-current={active ? "page" : undefined}>
                  <span className="nav-icon" aria-hidden="true">
                    {n.icon}
                  </span>
                  <span className="nav-label">{n.label}</span>
                  {n.badge !== undefined ? (
                    <span className={`nav-badge${n.badge > 0 ? " has-items" : ""}`} data-testid="gates-badge" data-count={n.badge} aria-label={`${n.badge} open gate${n.badge === 1 ? "" : "s"}`}>
                      {n.badge}
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="sidebar-foot">
        <ConnectionIndicator />
        <div className="user" data-testid="current-user">
          <div className="user-name">{user.name}</div>
          <div className="user-email text-muted">{user.email}</div>
          <div className="user-roles">
            {user.roles.map((r) => (
              <span key={r} className="role-chip">
                {r}
              </span>
            ))}
          </div>
          <Link href="/account/tokens" className="text-link underline underline-offset-2 text-sm user-account" data-testid="account-link">
            Account: password, API tokens
          </Link>
        </div>
        <div className="sidebar-actions">
          <ThemeToggle saved={user.theme} signedIn />
          <button type="button" className={ui.button("ghost")} onClick={() => void signOut({ callbackUrl: "/login" })} data-testid="sign-out">
            Sign out
          </button>
        </div>
      </div>
    </aside>
  );
}
