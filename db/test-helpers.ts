import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { createDb, withConnection, withDatabaseName, type DbHandle } from "./client";
import "./test-global-setup";

export interface TestDatabase extends DbHandle {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template: one per test file (or per test). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = inject("databaseUrl");
  const name = `t_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = withDatabaseName(base, "postgres");
  await withConnection(admin, (sql) => sql.unsafe(`create database ${name} template ${inject("templateDatabase")}`));
  const url = withDatabaseName(base, name);
  const handle = createDb(url, { max: 10, applicationName: "faultline-test" });
  return {
    ...handle,
    url,
    async drop() {
      await handle.close().catch(() => {});
      await withConnection(admin, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`));
    },
  };
}

/** The text of a database error: drizzle wraps driver errors ("Failed query: …"); PostgreSQL's own message is the cause. */
export async function dbError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { cause?: Error & { constraint_name?: string } };
    return `${err.message} ${err.cause?.message ?? ""} ${err.cause?.constraint_name ?? ""}`;
  }
  return "no error";
}
