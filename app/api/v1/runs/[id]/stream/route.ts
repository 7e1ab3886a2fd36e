import { getDb } from "@/db/client";
import { listEventsAfter } from "@/db/queries/events";
import { loadRun } from "@/db/queries/runs";
import { apiRoute, parseIdOr404, parseOr400 } from "@/server/api";
import { api } from "@/server/api-contract";
import { missionChanged } from "@/server/mission-signal";

export const dynamic = "force-dynamic";

const KEEPALIVE_MS = 15_000;

/**
 * The run's events as server-sent events (`id` = seq, `event` = type, `data` = the event), from `after`
 * or Last-Event-ID, until the run ends or the client goes. The event log is the truth: every wake-up
 * re-reads it after the last seq sent, so nothing is missed or sent twice.
 */
export const GET = apiRoute<{ id: string }>(api.runStream, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const sp = new URL(req.url).searchParams;
  const q = parseOr400(api.runStream.query, { after: sp.get("after") ?? req.headers.get("last-event-id") ?? undefined }, "query string");
  const db = getDb();
  await loadRun(db, id); // 404 / 409 before the stream starts
  const encoder = new TextEncoder();
  let after = q.after;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      try {
        send(`retry: 2000\n\n`);
        for (;;) {
          const events = await listEventsAfter(db, { missionId: id, afterSeq: after, limit: 500 });
          for (const e of events) {
            send(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
            after = e.seq;
          }
          if (events.some((e) => e.type === "mission.finished")) break;
          if (events.length === 500) continue;
          if (req.signal.aborted) break;
          const s = await loadRun(db, id);
          if ((s.runState === "completed" || s.runState === "failed") && s.seq <= after) break;
          await missionChanged(id, KEEPALIVE_MS, req.signal);
          if (req.signal.aborted) break;
          send(`: keepalive\n\n`);
        }
      } catch (e) {
        if (!req.signal.aborted) send(`event: error\ndata: ${JSON.stringify({ error: { message: e instanceof Error ? e.message : String(e) } })}\n\n`);
      } finally {
        try {
          controller.close();
        } catch {
          // the client already went
        }
      }
    },
  });
  return new Response(stream, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" } });
});
