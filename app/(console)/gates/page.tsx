import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { GatesInbox } from "@/components/gates/gates-inbox";
import { can, describeMissingPermission } from "@/lib/auth/roles";
import { getPrincipal } from "@/server/auth";
import { loadOpenGates } from "@/server/read-models";
import { loadDecider } from "@/db/queries/users";
import { userActorId } from "@/db/queries/users";
import * as ui from "@/components/ui/styles";

export const metadata: Metadata = { title: "Gates" };
export const dynamic = "force-dynamic";

export default async function GatesPage() {
  const user = await getPrincipal();
  if (!user) redirect("/login?callbackUrl=/gates");
  if (!can(user, "gate.view")) return <p className={ui.notice}>{describeMissingPermission(user, "gate.view")}</p>;
  const gates = await loadOpenGates(getDb());
  const canDecide = can(user, "gate.decide");
  // Gate policies may narrow who decides a gate: the buttons follow them (the server checks again).
  const viewer = canDecide ? await loadDecider(getDb(), userActorId(user.id)) : null;
  return (
    <div className="grid gap-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <h1 className="text-xl font-[650]">Gates</h1>
          <p className="text-muted">Open gates, oldest first. Each paused mission waits here for a decision.</p>
        </div>
      </header>
      {!canDecide ? (
        <p className={ui.notice} data-testid="gates-readonly">
          You can view gates but not resolve them (needs operator or admin).
        </p>
      ) : null}
      <GatesInbox initialGates={gates} canDecide={canDecide} viewer={viewer} />
    </div>
  );
}
