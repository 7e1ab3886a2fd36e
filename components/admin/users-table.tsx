"use client";

import { Pills } from "../ui/pills";
import type { UserView } from "@/db/queries/users";
import { DataTable, type DataColumn } from "../ui/data-table";
import { RelativeTime } from "../ui/relative-time";
import { UserStatusBadge } from "./user-status";

const time = (iso: string | null) => (iso ? Date.parse(iso) : null);

const COLUMNS: DataColumn<UserView>[] = [
  { id: "name", header: "Name", alwaysVisible: true, sortValue: (u) => u.name, cell: (u) => u.name },
  { id: "email", header: "Email", sortValue: (u) => u.email, rowAttr: "email", cell: (u) => u.email },
  { id: "roles", header: "Roles", sortValue: (u) => u.roles.join(" "), cell: (u) => <RoleChips roles={u.roles} /> },
  { id: "groups", header: "Groups", sortValue: (u) => u.groups.join(", ") || null, cell: (u) => (u.groups.length ? u.groups.join(", ") : <span className="text-muted">—</span>) },
  { id: "status", header: "Status", sortValue: (u) => (u.active ? "active" : "deactivated"), cell: (u) => <UserStatusBadge user={u} /> },
  { id: "active", header: "Last activity", sortValue: (u) => time(u.lastActiveAt), cell: (u) => <RelativeTime iso={u.lastActiveAt} empty="never" /> },
  { id: "created", header: "Created", sortValue: (u) => time(u.createdAt), cell: (u) => <RelativeTime iso={u.createdAt} /> },
];

/** Every user: name, email, roles, groups, status, last activity, created (sortable; the view in the URL). */
export function UsersTable({ users }: { users: UserView[] }) {
  return (
    <DataTable
      data={users}
      columns={COLUMNS}
      rowHref={(u) => `/admin/users/${u.id}`}
      rowTestId="user-row"
      label="Users"
      testId="users-table"
      empty="No users yet."
    />
  );
}

export function RoleChips({ roles }: { roles: readonly string[] }) {
  return <Pills items={roles} look="chip" />;
}
