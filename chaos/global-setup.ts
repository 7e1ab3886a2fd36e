import { templateServerSetup } from "../db/test-global-setup";

/**
 * Global setup of the chaos suite: its own embedded PostgreSQL (under tmp/chaos-pg, so it never
 * shares a server with a concurrent `vitest run` of the unit suite) with a migrated template database.
 * Scenarios that only kill workers or break the network clone it; scenarios that stop, restart or
 * exhaust PostgreSQL start a dedicated server of their own (chaos/harness.ts, DedicatedPostgres).
 * DATABASE_URL, when set, is used instead (it must be a local server).
 */
export default templateServerSetup({ dataDir: "tmp/chaos-pg", template: `faultline_chaos_tpl_${process.pid}` }, { url: "chaosDatabaseUrl", template: "chaosTemplate" });

declare module "vitest" {
  export interface ProvidedContext {
    chaosDatabaseUrl: string;
    chaosTemplate: string;
  }
}
