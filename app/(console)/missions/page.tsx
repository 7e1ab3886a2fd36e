import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { MissionsTable } from "@/components/mission/missions-table";
import { NewMissionDialog } from "@/components/mission/new-mission-dialog";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { getPrincipal } from "@/server/auth";
import { loadMissionList } from "@/server/read-models";
import * as ui from "@/components/ui/styles";

export const metadata: Metadata = { title: "Missions" };
export const dynamic = "force-dynamic";

export default async function MissionsPage() {
  const user = await getPrincipal();
  if (!user) redirect("/login?callbackUrl=/missions");
  if (!can(user, "mission.view")) return <p className={ui.notice}>{describeMissingPermission(user, "mission.view")}</p>;
  const missions = await loadMissionList(getDb());
  return (
    <div className="grid gap-4">
      <header className="flex items-start justify-between gap-4">
        <h1 className="text-xl font-[650]">Missions</h1>
        {can(user, "mission.create") ? <NewMissionDialog /> : null}
      </header>
      <MissionsTable initialMissions={missions} />
    </div>
  );
}
