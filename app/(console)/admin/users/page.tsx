import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listUsers } from "@/db/queries/users";
import { NewUserForm } from "@/components/admin/new-user-form";
import { UsersTable } from "@/components/admin/users-table";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import * as ui from "@/components/ui/styles";
import { pageUser } from "@/server/page-access";
import { PageHeader } from "@/components/layout/page";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const user = await pageUser("/admin/users");
  if (!can(user, "user.manage")) {
    return (
      <p className={ui.notice} role="alert" data-testid="admin-refused">
        {describeMissingPermission(user, "user.manage")}
      </p>
    );
  }
  const users = await listUsers(getDb());
  const active = users.filter((u) => u.active).length;
  return (
    <div className="grid gap-4">
      <PageHeader title="Users">
        {users.length} user{users.length === 1 ? "" : "s"}, {active} active. Roles decide what each person may do (the permission matrix is in docs/guides/admin.md); groups name teams for gate policies. Every
        change here is in the audit log.
      </PageHeader>
      <UsersTable users={users} />
      <NewUserForm />
    </div>
  );
}
