import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { GatesInbox } from "@/components/gates/gates-inbox";
import { can } from "@/lib/auth/roles";
import { loadOpenGates } from "@/server/read-models";
import { loadDecider } from "@/db/queries/users";
import { userActorId } from "@/db/queries/users";
import * as ui from "@/components/ui/styles";
import { consolePage } from "@/components/layout/console-page";
import { Page } from "@/components/layout/page";

export const metadata: Metadata = { title: "Gates" };

export default consolePage({ path: "/gates", permission: "gate.view" }, async (user) => {
  const gates = await loadOpenGates(getDb());
  const canDecide = can(user, "gate.decide");
  // Gate policies may narrow who decides a gate: the buttons follow them (the server checks again).
  const viewer = canDecide ? await loadDecider(getDb(), userActorId(user.id)) : null;
  return (
    <Page
      title="Gates"
      intro="Open gates, oldest first. Each paused mission waits here for a decision."
    >
      {!canDecide ? (
        <p className={ui.notice} data-testid="gates-readonly">
          You can view gates but not resolve them (needs operator or admin).
        </p>
      ) : null}
      <GatesInbox initialGates={gates} canDecide={canDecide} viewer={viewer} />
    </Page>
  );
});
