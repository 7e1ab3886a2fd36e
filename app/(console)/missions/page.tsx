import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { MissionsTable } from "@/components/mission/missions-table";
import { NewMissionDialog } from "@/components/mission/new-mission-dialog";
import { can } from "@/lib/auth/roles";
import { loadMissionList } from "@/server/read-models";
import { pageUser } from "@/server/page-access";
import { PageHeader, Refused } from "@/components/layout/page";

export const metadata: Metadata = { title: "Missions" };
export const dynamic = "force-dynamic";

export default async function MissionsPage() {
  const user = await pageUser("/missions");
  if (!can(user, "mission.view")) return <Refused user={user} permission="mission.view" />;
  const missions = await loadMissionList(getDb());
  return (
    <div className="grid gap-4">
      <PageHeader title="Missions" actions={can(user, "mission.create") ? <NewMissionDialog /> : null} />
      <MissionsTable initialMissions={missions} />
    </div>
  );
}
