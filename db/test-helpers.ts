import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type DbHandle } from "./client";
import "./test-global-setup";

export interface TestDatabase extends DbHandle {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template: one per test file (or per test). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = inject("databaseUrl");
  const name = `t_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new URL(base);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`create database ${name} template ${inject("templateDatabase")}`);
  await c.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = createDb(url.toString(), { max: 10, applicationName: "faultline-test" });
  return {
    ...handle,
    url: url.toString(),
    async drop() {
      await handle.close().catch(() => {});
      const d = new pg.Client({ connectionString: admin.toString() });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

/** The text of a database error: drizzle wraps driver errors ("Failed query: …"); PostgreSQL's own message is the cause. */
export async function dbError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return `${err.message} ${err.cause?.message ?? ""} ${(err.cause as { constraint?: string })?.constraint ?? ""}`;
  }
  return "no error";
}
