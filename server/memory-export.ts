import { getDb } from "@/db/client";
import { memoryRecords, recordMemoryExport, type MemoryKind } from "@/db/queries/learning";
import { getMissionLastSeq } from "@/db/queries/views";
import { AppError } from "@/lib/errors";
import { apiRoute, ndjsonResponse, parseOr400 } from "./api";
import { api } from "./api-contract";

/**
 * GET /api/v1/memory/{session,episodic}: ADR-0003 memory as JSON Lines, oldest first, streamed
 * (`?missionId=` for one mission). Needs memory.export.
 */
export function memoryExportRoute(kind: MemoryKind) {
  const endpoint = kind === "session" ? api.sessionMemory : api.episodicMemory;
  return apiRoute(endpoint, async ({ req, actor }) => {
    const sp = new URL(req.url).searchParams;
    const { missionId } = parseOr400(endpoint.query, { missionId: sp.get("missionId") ?? undefined }, "query string");
    const db = getDb();
    if (missionId && (await getMissionLastSeq(db, missionId)) === null) throw new AppError("not_found", { userMessage: `Mission ${missionId} does not exist.` });
    await recordMemoryExport(db, actor, kind, missionId);
    return ndjsonResponse(memoryRecords(db, kind, { missionId }), `${kind}_memory.jsonl`);
  });
}
