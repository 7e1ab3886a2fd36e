import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listUsers } from "@/db/queries/users";
import { NewUserForm } from "@/components/admin/new-user-form";
import { UsersTable } from "@/components/admin/users-table";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Users" };

export default consolePage({ path: "/admin/users", permission: "user.manage", refused: { alert: true, testId: "admin-refused" } }, async () => {
  const users = await listUsers(getDb());
  const active = users.filter((u) => u.active).length;
  return (
    <Page
      title="Users"
      intro={
        <>
          {users.length} user{users.length === 1 ? "" : "s"}, {active} active. Roles decide what each person may do (the permission matrix is in docs/guides/admin.md); groups name teams for gate policies. Every
          change here is in the audit log.
        </>
      }
    >
      <UsersTable users={users} />
      <NewUserForm />
    </Page>
  );
});
