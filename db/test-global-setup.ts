import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { ensureDatabase } from "./embedded";
import { runMigrations } from "./migrate";

/**
 * Vitest global setup: a real PostgreSQL (embedded under .data-test, or DATABASE_URL) with a migrated
 * template database; each test file clones it (see db/test-helpers.ts).
 */

export default async function setup(project: TestProject) {
  // One template per test run, so concurrent runs on the same server never disturb each other.
  const TEMPLATE = `faultline_tpl_${process.pid}`;
  const handle = await ensureDatabase({ dataDir: path.resolve(".data-test"), databaseUrl: process.env.DATABASE_URL });
  const admin = new URL(handle.url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [TEMPLATE]);
  await c.query(`drop database if exists ${TEMPLATE}`);
  await c.query(`create database ${TEMPLATE}`);
  await c.end();
  const tpl = new URL(handle.url);
  tpl.pathname = `/${TEMPLATE}`;
  await runMigrations(tpl.toString());
  project.provide("databaseUrl", handle.url);
  project.provide("templateDatabase", TEMPLATE);
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
    databaseUrl: string;
    templateDatabase: string;
  }
}
