import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { Db } from "./client";
import { rebuildStaleSnapshots } from "./queries/events";
import * as schema from "./schema";

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Applies committed migrations; safe when several processes start at once (advisory lock). */
export async function runMigrations(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(7242001)");
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
    const rebuilt = await rebuildStaleSnapshots(drizzle(client, { schema }) as unknown as Db);
    if (rebuilt) console.log(`[migrate] rebuilt ${rebuilt} mission snapshot(s) from their events`);
  } finally {
    await client.query("select pg_advisory_unlock(7242001)").catch(() => {});
    await client.end();
  }
}
