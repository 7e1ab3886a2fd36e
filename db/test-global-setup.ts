import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { ensureDatabase } from "./embedded";
import { runMigrations } from "./migrate";

/**
 * Vitest global setup: a real PostgreSQL (embedded under .data-test, or DATABASE_URL) with a migrated
 * template database; each test file clones it (see db/test-helpers.ts).
 */

/**
 * A PostgreSQL (embedded under `dataDir`, or DATABASE_URL) with a freshly migrated template database
 * named `template`; `teardown` drops the template and stops the server if this process started it.
 */
export async function startTemplateServer(opts: { dataDir: string; template: string }): Promise<{ url: string; template: string; teardown: () => Promise<void> }> {
  const handle = await ensureDatabase({ dataDir: path.resolve(opts.dataDir), databaseUrl: process.env.DATABASE_URL });
  const admin = new URL(handle.url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`drop database if exists ${opts.template} with (force)`);
  await c.query(`create database ${opts.template}`);
  await c.end();
  const tpl = new URL(handle.url);
  tpl.pathname = `/${opts.template}`;
  await runMigrations(tpl.toString());
  return {
    url: handle.url,
    template: opts.template,
    teardown: async () => {
      const d = new pg.Client({ connectionString: admin.toString() });
      await d.connect();
      await d.query(`drop database if exists ${opts.template} with (force)`).catch(() => {});
      await d.end();
      await handle.stop();
    },
  };
}

export default async function setup(project: TestProject) {
  // One template per test run, so concurrent runs on the same server never disturb each other.
  const server = await startTemplateServer({ dataDir: ".data-test", template: `faultline_tpl_${process.pid}` });
  project.provide("databaseUrl", server.url);
  project.provide("templateDatabase", server.template);
  return server.teardown;
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    templateDatabase: string;
  }
}
