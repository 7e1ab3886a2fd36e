import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { MissionView } from "@/components/mission/mission-view";
import { can } from "@/lib/auth/roles";
import { idSchema } from "@/server/api";
import { consolePage } from "@/components/layout/console-page";
import { loadMissionDetail } from "@/server/read-models";
import { EVENT_WINDOW } from "@/lib/views/mission-detail";
import { loadDecider } from "@/db/queries/users";
import { userActorId } from "@/db/queries/users";

export const metadata: Metadata = { title: "Mission" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ seq?: string | string[] }> };

export default consolePage({ path: async ({ params }: Props) => `/missions/${encodeURIComponent((await params).id)}`, permission: "mission.view" }, async (user, { params, searchParams }: Props) => {
  const { id } = await params;
  // ?seq=N (from the failure history): the timeline opens at that event, highlighted.
  const raw = Number((await searchParams).seq);
  const seq = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  if (!idSchema.safeParse(id).success) notFound();
  // The newest events (or those around ?seq=) only: the timeline pages in the rest as the operator scrolls.
  const detail = await loadMissionDetail(getDb(), id, { window: { limit: EVENT_WINDOW, around: seq } });
  if (!detail) notFound();
  // Gate policies may narrow who decides a gate: the gate panel's buttons follow them (the server checks again).
  const viewer = can(user, "gate.decide") ? await loadDecider(getDb(), userActorId(user.id)) : null;
  return <MissionView initial={detail} canDecide={can(user, "gate.decide")} canControl={can(user, "mission.control")} viewer={viewer} highlightSeq={seq} canViewHistory={can(user, "history.view")} canExportTrace={can(user, "trace.export")} />;
});
