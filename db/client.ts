import { env } from "../lib/env";
import type { SQL } from "drizzle-orm";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";
import { queryTrace } from "./trace";

export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything queries run on: the pool-backed db or a transaction. */
export type Executor = Db | Tx;
/** A postgres.js client: tagged-template SQL, `unsafe(text, params)`, `listen`, `end`. */
export type Sql = postgres.Sql;

export interface DbHandle {
  db: Db;
  /** The postgres.js client under `db` (a pool of `max` connections). */
  sql: Sql;
  close(): Promise<void>;
}

/**
 * The options every Faultline connection shares. bigint counts (int8) come back as numbers; NOTICEs
 * (e.g. "already exists, skipping" from migrations) are not printed. postgres.js reconnects by itself:
 * a connection that dies (server restart, pg_terminate_backend) fails the query that was on it, and the
 * next query opens a new one — the pool never leaks a slot, whatever the failure.
 */
function clientOptions(applicationName: string, max: number, onQuery?: (query: string, parameters: readonly unknown[]) => void): postgres.Options<Record<string, postgres.PostgresType>> {
  const trace = queryTrace();
  return {
    ...(trace || onQuery
      ? {
          debug: (connection: number, query: string, parameters: unknown[]) => {
            trace?.query(connection, query);
            onQuery?.(query, parameters ?? []);
          },
        }
      : {}),
    max,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: applicationName },
    types: {
      int8: { to: 20, from: [20], serialize: (v: number | bigint | string) => String(v), parse: (v: string) => Number(v) },
    },
  };
}

/**
 * drizzle runs its queries as unnamed statements (`prepare: false`); postgres.js then asks the server to
 * describe every query with parameters before it can send it — two round trips a query. Named statements
 * are described once per connection and cached: one round trip, as with node-postgres. (bench:append:
 * unnamed, the append path ran at ~75% of node-postgres' rate.) Transactions' and savepoints' clients
 * are wrapped the same way. postgres.js re-prepares by itself when a schema change invalidates a plan.
 */
function preparedStatements<T extends object>(client: T): T {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (prop === "unsafe") return (query: string, params?: unknown[], options?: Record<string, unknown>) => fn.call(target, query, params, { ...options, prepare: true });
      if (prop === "begin" || prop === "savepoint")
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: object) => unknown;
          return fn.call(target, ...args, (tx: object) => body(preparedStatements(tx)));
        };
      return fn.bind(target);
    },
  });
}

/** `onQuery`: told the text (and parameters) of every statement the pool sends, BEGIN and COMMIT included (tests count them). */
export function createDb(url: string, opts: { max?: number; applicationName?: string; onQuery?: (query: string, parameters: readonly unknown[]) => void } = {}): DbHandle {
  const sql = postgres(url, clientOptions(opts.applicationName ?? "faultline", opts.max ?? 10, opts.onQuery));
  const db = drizzle(preparedStatements(sql), { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/**
 * Runs `fn` on a single short-lived connection to `url` and closes it: administrative work such as
 * creating or dropping databases, which must not happen on a pooled connection to the database itself.
 */
export async function withConnection<T>(url: string, fn: (sql: Sql) => Promise<T>, opts: { connectTimeoutSeconds?: number; applicationName?: string } = {}): Promise<T> {
  const sql = postgres(url, { ...clientOptions(opts.applicationName ?? "faultline-admin", 1), idle_timeout: 0, connect_timeout: opts.connectTimeoutSeconds ?? 10 });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
  }
}

/** `url` with its database name replaced. */
export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const globalForDb = globalThis as unknown as { __faultlineDb?: DbHandle };

/** The process-wide database, from DATABASE_URL; one pool per process, also across hot reloads and bundles. */
export function getDbHandle(): DbHandle {
  if (!globalForDb.__faultlineDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Faultline with `npm start` (which sets it) or set it to a PostgreSQL URL.");
    globalForDb.__faultlineDb = createDb(url, { max: env().FAULTLINE_DB_POOL_MAX, applicationName: `faultline-${process.env.FAULTLINE_PROCESS ?? "web"}` });
  }
  return globalForDb.__faultlineDb;
}

export function getDb(): Db {
  return getDbHandle().db;
}

/**
 * The postgres.js client under a drizzle database or transaction (issue 19). The append path's frequent
 * statements (db/queries/events.ts, mission-state.ts) go to it directly as fixed texts — `driverOf(tx)
 * .unsafe(text, params)`, a named prepared statement like every query here (`preparedStatements`) — without
 * drizzle building the same query again at every step. Values go as drizzle sends them: JSON as text
 * (jsonb's serializer is the identity under drizzle), timestamps as text; rows come back under the names
 * the text gives its columns, timestamps as PostgreSQL's text, jsonb parsed.
 */
export function driverOf(ex: Executor): Sql {
  const client = (ex as unknown as { session?: { client?: Sql } }).session?.client;
  if (!client) throw new Error("driverOf: this executor is not a drizzle postgres-js database or transaction (no session.client)");
  return client;
}

/** `($1, $2), ($3, $4)` for `rows` rows of `columns` parameters each, numbered from `$first`. */
export function valuesPlaceholders(rows: number, columns: number, first = 1): string {
  return Array.from({ length: rows }, (_, r) => `(${Array.from({ length: columns }, (_, c) => `$${first + r * columns + c}`).join(", ")})`).join(", ");
}

/**
 * The rows of a raw SQL query (`sql\`…\``). Use this rather than reading the driver's result shape:
 * it stays the same whichever driver runs underneath.
 */
export async function queryRows<T = Record<string, unknown>>(ex: Executor, query: SQL): Promise<T[]> {
  const result = await ex.execute(query);
  return [...(result as unknown as Iterable<T>)];
}
