import path from "node:path";
import type { ProvidedContext } from "vitest";
import type { TestProject } from "vitest/node";
import { withConnection, withDatabaseName } from "./client";
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
  const admin = withDatabaseName(handle.url, "postgres");
  await withConnection(admin, async (sql) => {
    await sql.unsafe(`drop database if exists ${opts.template} with (force)`);
    await sql.unsafe(`create database ${opts.template}`);
  });
  await runMigrations(withDatabaseName(handle.url, opts.template));
  return {
    url: handle.url,
    template: opts.template,
    teardown: async () => {
      await withConnection(admin, (sql) => sql.unsafe(`drop database if exists ${opts.template} with (force)`)).catch(() => {});
      await handle.stop();
    },
  };
}

/** The names under which a global setup provides text to the tests. */
type TextKey = { [K in keyof ProvidedContext]: ProvidedContext[K] extends string ? K : never }[keyof ProvidedContext];

/**
 * A Vitest global setup on `startTemplateServer(opts)`: provides the server's URL and the template's
 * name to the tests under the names `provide` gives; its teardown is the server's.
 */
export function templateServerSetup(opts: { dataDir: string; template: string }, provide: { url: TextKey; template: TextKey }) {
  return async (project: TestProject) => {
    const server = await startTemplateServer(opts);
    project.provide(provide.url, server.url);
    project.provide(provide.template, server.template);
    return server.teardown;
  };
}

// One template per test run, so concurrent runs on the same server never disturb each other.
export default templateServerSetup({ dataDir: ".data-test", template: `faultline_tpl_${process.pid}` }, { url: "databaseUrl", template: "templateDatabase" });

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    templateDatabase: string;
  }
}
