import path from "node:path";
import { z } from "zod";
import { parseProviders, type Provider } from "./llm/providers";

/** Environment, parsed once with zod. A bad value fails at start with a message naming the variable. */
const bool = z
  .enum(["0", "1", "true", "false", "yes", "no"], { error: "must be 1/0, true/false or yes/no" })
  .transform((v) => v === "1" || v === "true" || v === "yes");
const int = (def: number, min = 0) => z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(min).default(def);

export const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  FAULTLINE_DATA_DIR: z.string().min(1).default(".data"),
  PORT: int(3000, 0).refine((p) => p < 65536, "must be a TCP port (0-65535)"),
  HOST: z.string().min(1).default("127.0.0.1"),
  NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  FAULTLINE_DEMO_USERS: bool.default(true),
  FAULTLINE_LEASE_MS: int(15_000, 1000),
  FAULTLINE_HEARTBEAT_MS: int(5_000, 100),
  FAULTLINE_POLL_MS: int(2_000, 50),
  FAULTLINE_WORKER_CONCURRENCY: int(4, 1),
  FAULTLINE_OPERATOR_DISCONNECT_MS: int(60_000, 100),
  /** Connections in the pool of a web or CLI process (the worker's is its concurrency + 4). Mind PostgreSQL's max_connections across replicas. */
  FAULTLINE_DB_POOL_MAX: int(10, 1),
  /** How long a count with words (history full text, audit words) may take before it says "at least" what it found. */
  FAULTLINE_WORDS_COUNT_MS: int(80, 1),
  FAULTLINE_ALLOWED_BINARIES: z
    .string()
    .default("")
    .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean)),
  /** Binaries a recovery's helper steps may run besides the mission's allowlist (ADR-0003; by default only waiting). */
  FAULTLINE_RECOVERY_BINARIES: z
    .string()
    .default("sleep")
    .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean))
    .refine((list) => list.every((b) => /^[A-Za-z0-9._+-]+$/.test(b)), "must be comma-separated binary names, not paths"),
  /** Distinct reviewers' approvals a library contribution needs before it is published (issue 5). */
  FAULTLINE_LIBRARY_APPROVALS: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(10, "must be at most 10").default(1),
  /** The worker consults the failure-mode library after each failure's diagnosis (000 Output Protocol); 0 turns it off. */
  FAULTLINE_LIBRARY_PROTOCOL: bool.default(true),
  /** Governance (issue 6): a gate without a policy deadline is overdue after this long open (default 1 hour). */
  FAULTLINE_DECISION_SLA_MS: int(3_600_000, 1000),
  /** Governance: someone who may decide gates is "on duty" when active in the console this recently (default 15 minutes). */
  FAULTLINE_ON_DUTY_MS: int(900_000, 1000),
  /** Seed 002: how long an approval of a proposal stays valid before it must be decided again (default 15 minutes). */
  FAULTLINE_APPROVAL_TTL_MS: int(900_000, 1000),
  /** First webhook retry after this many ms, doubling up to an hour, for 24 hours. */
  FAULTLINE_WEBHOOK_RETRY_MS: int(10_000, 10),
  /**
   * The recorded provider's base URL (server/model-replay.ts), set by `npm start` in demo mode and by the e2e
   * setup: autonomous agents may use it (`provider: recorded`) besides FAULTLINE_LLM_PROVIDERS. It only
   * replays recorded outputs; the optional LLM diagnosis never uses it.
   */
  FAULTLINE_RECORDED_PROVIDER: z.url({ error: "must be the recorded provider's base URL, e.g. http://127.0.0.1:4100/v1" }).optional(),
  FAULTLINE_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Health checks (database, storage, LLM providers, websocket relay, workers) run this often. */
  FAULTLINE_HEALTH_INTERVAL_MS: int(10_000, 1000),
  /** JSON array of OpenAI-compatible providers in fallback order (lib/llm/providers.ts); absent = no LLM. */
  FAULTLINE_LLM_PROVIDERS: z
    .string()
    .optional()
    .transform((text, ctx): Provider[] => {
      try {
        return parseProviders(text);
      } catch (e) {
        ctx.addIssue({ code: "custom", message: e instanceof Error ? e.message : String(e) });
        return z.NEVER;
      }
    }),
});
export type Env = z.infer<typeof envSchema> & { dataDir: string };

export class EnvError extends Error {}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    // Values that may hold credentials are never echoed.
    const secret = new Set(["NEXTAUTH_SECRET", "FAULTLINE_LLM_PROVIDERS"]);
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      return `  ${i.path.join(".")}: ${i.message}${secret.has(name) ? "" : ` (got ${JSON.stringify(cleaned[name])})`}`;
    });
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}\nFix these variables (see docs/configuration.md) and start again.`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.FAULTLINE_DATA_DIR) };
}

let cached: Env | undefined;
export function env(): Env {
  return (cached ??= parseEnv());
}
