import { getDb } from "@/db/client";
import { latestFeedback, recordDiagnosisFeedback } from "@/db/queries/diagnosis-feedback";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** The latest operator verdict on a diagnosis' error type (null when nobody gave one). */
export const GET = apiRoute<{ id: string }>(api.diagnosisFeedback, async ({ params }) => {
  const latest = await latestFeedback(getDb(), [params.id]);
  return Response.json({ feedback: latest[params.id] ?? null });
});

/** Confirms or corrects a diagnosis' error type: 201, 400 (bad verdict or type), 404 (no such diagnosis). */
export const POST = apiRoute<{ id: string }>(api.giveDiagnosisFeedback, async ({ req, actor, params }) => {
  const input = parseOr400(api.giveDiagnosisFeedback.body, await readJson(req), "feedback");
  const feedback = await recordDiagnosisFeedback(getDb(), actor, { diagnosisId: params.id, verdict: input.verdict, correctType: input.verdict === "corrected" ? input.type : null, note: input.note });
  return Response.json({ feedback }, { status: 201 });
});
