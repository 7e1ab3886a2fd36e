import { getDb } from "@/db/client";
import { latestFeedback, recordDiagnosisFeedback } from "@/db/queries/diagnosis-feedback";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";
import { AppError } from "@/lib/errors";

/** A diagnosis id as the diagnosis writes it (`diag_` and a ULID); anything else names no diagnosis. */
function diagnosisId(raw: string | undefined): string {
  if (!raw || !/^diag_[0-9A-Za-z]{1,64}$/.test(raw)) throw new AppError("not_found", { userMessage: `"${String(raw ?? "").slice(0, 80)}" is not a diagnosis id. Diagnosis ids look like diag_01J…; the gate and the diagnostic_reflection event show them.` });
  return raw;
}

export const dynamic = "force-dynamic";

/** The latest operator verdict on a diagnosis' error type (null when nobody gave one). */
export const GET = apiRoute<{ id: string }>(api.diagnosisFeedback, async ({ params }) => {
  const id = diagnosisId(params.id);
  const latest = await latestFeedback(getDb(), [id]);
  return Response.json({ feedback: latest[id] ?? null });
});

/** Confirms or corrects a diagnosis' error type: 201, 400 (bad verdict or type), 404 (no such diagnosis). */
export const POST = apiRoute<{ id: string }>(api.giveDiagnosisFeedback, async ({ req, actor, params }) => {
  const id = diagnosisId(params.id);
  const input = parseOr400(api.giveDiagnosisFeedback.body, await readJson(req), "feedback");
  const feedback = await recordDiagnosisFeedback(getDb(), actor, { diagnosisId: id, verdict: input.verdict, correctType: input.verdict === "corrected" ? input.type : null, note: input.note });
  return Response.json({ feedback }, { status: 201 });
});
