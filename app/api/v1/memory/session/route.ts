import { memoryExportRoute } from "@/server/memory-export";

export const dynamic = "force-dynamic";

/** Session memory (ADR-0003) as JSON Lines (`session_memory.jsonl`), streamed; `?missionId=` for one mission. */
export const GET = memoryExportRoute("session");
