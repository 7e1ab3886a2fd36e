import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { ensureDatabase } from "./embedded";
import { runMigrations } from "./migrate";

/**
 * Vitest global setup: a real PostgreSQL (embedded under .data-test, or DATABASE_URL) with a migrated
 * template database; each test file clones it (see db/test-helpers.ts).
 */
export const TEMPLATE = "faultline_test_template";

export default async function setup(project: TestProject) {
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
  return async () => {
    await handle.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
