import { z } from "zod";
import type { MissionEvent } from "../mission/events";

/**
 * The socket.io protocol between the web process and browsers.
 *
 *  client → server  subscribe:mission {missionId, lastSeq}  join room mission:<id>, then receive every event with seq > lastSeq
 *                   unsubscribe:mission {missionId}
 *                   subscribe:missions / unsubscribe:missions  join/leave room "missions"
 *  server → client  mission:events {missionId, events}       events in seq order (catch-up or live)
 *                   missions:changed {missionId, seq}         missions changed (coalesced: at most one per 250 ms; missionId null: several, or anything, may have changed)
 *                   mission:error {missionId, message}        a subscribe was refused (unknown mission, bad input)
 */

export const subscribeMissionSchema = z.object({
  missionId: z.guid(),
  lastSeq: z.number().int().min(0),
});
export type SubscribeMission = z.infer<typeof subscribeMissionSchema>;

export const unsubscribeMissionSchema = z.object({ missionId: z.guid() });

/** The NOTIFY payload on faultline_events: `{"m":"<missionId>","s":<lastSeq>}`. */
export const notifyPayloadSchema = z.object({ m: z.guid(), s: z.number().int().min(1) });

export interface ClientToServerEvents {
  "subscribe:mission": (msg: SubscribeMission) => void;
  "unsubscribe:mission": (msg: { missionId: string }) => void;
  "subscribe:missions": () => void;
  "unsubscribe:missions": () => void;
}

export interface ServerToClientEvents {
  "mission:events": (msg: { missionId: string; events: MissionEvent[] }) => void;
  "missions:changed": (msg: { missionId: string | null; seq: number }) => void;
  "mission:error": (msg: { missionId: string | null; message: string }) => void;
}

export const missionRoom = (missionId: string) => `mission:${missionId}`;
export const MISSIONS_ROOM = "missions";

/** Message the handshake rejects with when there is no valid session. */
export const SIGN_IN_MESSAGE = "Not signed in: your session is missing or expired. Sign in again at /login to receive live updates.";
