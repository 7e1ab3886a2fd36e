import { z } from "zod";
import { getDb } from "@/db/client";
import { memoryRecords, recordMemoryExport, type MemoryKind } from "@/db/queries/learning";
import { getMissionLastSeq } from "@/db/queries/views";
import { AppError } from "@/lib/errors";
import { apiRoute, ndjsonResponse, parseOr400 } from "./api";

const query = z.object({ missionId: z.guid({ error: "must be a mission id (a UUID)" }).optional() });

/**
 * GET /api/v1/memory/{session,episodic}: ADR-0003 memory as JSON Lines, oldest first, streamed
 * (`?missionId=` for one mission). Needs memory.export.
 */
export function memoryExportRoute(kind: MemoryKind) {
  return apiRoute({ name: `GET memory ${kind}`, permission: "memory.export" }, async ({ req, actor }) => {
    const sp = new URL(req.url).searchParams;
    const { missionId } = parseOr400(query, { missionId: sp.get("missionId") ?? undefined }, "query string");
    const db = getDb();
    if (missionId && (await getMissionLastSeq(db, missionId)) === null) throw new AppError("not_found", { userMessage: `Mission ${missionId} does not exist.` });
    await recordMemoryExport(db, actor, kind, missionId);
    return ndjsonResponse(memoryRecords(db, kind, { missionId }), `${kind}_memory.jsonl`);
  });
}
