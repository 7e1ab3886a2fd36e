import { memoryExportRoute } from "@/server/memory-export";

export const dynamic = "force-dynamic";

/** Episodic memory (ADR-0003) as JSON Lines (`episodic_memory.jsonl`), streamed; `?missionId=` for one mission. */
export const GET = memoryExportRoute("episodic");
