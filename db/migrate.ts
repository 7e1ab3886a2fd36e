import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import type { Db } from "./client";
import { withConnection } from "./client";
import { ensurePartitions } from "./partitions";
import { rebuildStaleSnapshots } from "./queries/events";
import * as schema from "./schema";

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Applies committed migrations; safe when several processes start at once (advisory lock). */
export async function runMigrations(url: string): Promise<void> {
  await withConnection(
    url,
    async (sql) => {
      await sql`select pg_advisory_lock(7242001)`;
      try {
        const db = drizzle(sql, { schema });
        await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
        // Time partitions (migration 0028): this month and the months ahead exist before anything writes.
        const partitions = await ensurePartitions(db as unknown as Db);
        if (partitions) console.log(`[migrate] created ${partitions} monthly partition(s)`);
        const { rebuilt, refused } = await rebuildStaleSnapshots(db as unknown as Db);
        if (rebuilt) console.log(`[migrate] rebuilt ${rebuilt} mission snapshot(s) from their events`);
        if (refused) console.log(`[migrate] ${refused} mission(s) keep their stored snapshot: their events no longer replay`);
      } finally {
        await sql`select pg_advisory_unlock(7242001)`.catch(() => {});
      }
    },
    { applicationName: "faultline-migrate" },
  );
}
