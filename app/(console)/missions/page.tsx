import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { MissionsTable } from "@/components/mission/missions-table";
import { NewMissionDialog } from "@/components/mission/new-mission-dialog";
import { can } from "@/lib/auth/roles";
import { loadMissionList } from "@/server/read-models";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Missions" };

export default consolePage({ path: "/missions", permission: "mission.view" }, async (user) => {
  const missions = await loadMissionList(getDb());
  return (
    <Page
      title="Missions"
      actions={can(user, "mission.create") ? <NewMissionDialog /> : null}
    >
      <MissionsTable initialMissions={missions} />
    </Page>
  );
});
