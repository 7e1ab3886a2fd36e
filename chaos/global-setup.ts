import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { ensureDatabase } from "../db/embedded";
import { runMigrations } from "../db/migrate";

/**
 * Global setup of the chaos suite: its own embedded PostgreSQL (under tmp/chaos-pg, so it never
 * shares a server with a concurrent `vitest run` of the unit suite) with a migrated template database.
 * Scenarios that only kill workers or break the network clone it; scenarios that stop, restart or
 * exhaust PostgreSQL start a dedicated server of their own (chaos/harness.ts, DedicatedPostgres).
 * DATABASE_URL, when set, is used instead (it must be a local server).
 */
export default async function setup(project: TestProject) {
  const TEMPLATE = `faultline_chaos_tpl_${process.pid}`;
  const handle = await ensureDatabase({ dataDir: path.resolve("tmp/chaos-pg"), databaseUrl: process.env.DATABASE_URL });
  const admin = new URL(handle.url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`drop database if exists ${TEMPLATE} with (force)`);
  await c.query(`create database ${TEMPLATE}`);
  await c.end();
  const tpl = new URL(handle.url);
  tpl.pathname = `/${TEMPLATE}`;
  await runMigrations(tpl.toString());
  project.provide("chaosDatabaseUrl", handle.url);
  project.provide("chaosTemplate", TEMPLATE);
  return async () => {
    const d = new pg.Client({ connectionString: admin.toString() });
    await d.connect();
    await d.query(`drop database if exists ${TEMPLATE} with (force)`).catch(() => {});
    await d.end();
    await handle.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    chaosDatabaseUrl: string;
    chaosTemplate: string;
  }
}
