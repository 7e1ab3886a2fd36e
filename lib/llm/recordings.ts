import { z } from "zod";

/**
 * Recorded model outputs (seed 002: a model at temperature 0 is still not deterministic, so demos, tests
 * and lab scenarios play recorded outputs back). The recorded provider (server/model-replay.ts) serves
 * them over HTTP; the lab (lib/lab) plays them to its worlds' autonomous agents directly. One turn: the
 * model's text and/or its tool calls.
 */
export const recordedTurnSchema = z.object({
  content: z.string().nullish(),
  toolCalls: z.array(z.object({ name: z.string(), arguments: z.unknown() })).optional(),
});
export type RecordedTurn = z.infer<typeof recordedTurnSchema>;

export const recordingsSchema = z.object({ recordings: z.array(z.object({ id: z.string(), goal: z.string().min(1), turns: z.array(recordedTurnSchema).min(1) })) });
export type Recordings = z.infer<typeof recordingsSchema>;
