"use client";

import Link from "next/link";
import type { UserView } from "@/db/queries/users";
import { RelativeTime } from "../ui/relative-time";
import { UserStatusBadge } from "./user-status";

/** Every user: name, email, roles, groups, status, last activity, created. */
export function UsersTable({ users }: { users: UserView[] }) {
  if (users.length === 0) return <p className="notice">No users yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="users-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Roles</th>
            <th scope="col">Groups</th>
            <th scope="col">Status</th>
            <th scope="col">Last activity</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id} data-testid="user-row" data-email={u.email}>
              <td>
                <Link className="link" href={`/admin/users/${u.id}`}>
                  {u.name}
                </Link>
              </td>
              <td>{u.email}</td>
              <td>
                <RoleChips roles={u.roles} />
              </td>
              <td>{u.groups.length ? u.groups.join(", ") : <span className="muted">—</span>}</td>
              <td>
                <UserStatusBadge user={u} />
              </td>
              <td>
                <RelativeTime iso={u.lastActiveAt} empty="never" />
              </td>
              <td>
                <RelativeTime iso={u.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function RoleChips({ roles }: { roles: readonly string[] }) {
  return (
    <span className="user-roles adm-roles">
      {roles.map((r) => (
        <span key={r} className="role-chip">
          {r}
        </span>
      ))}
    </span>
  );
}
