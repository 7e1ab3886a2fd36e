import { eq, sql } from "drizzle-orm";
import type { Role } from "../../lib/auth/roles";
import type { Executor } from "../client";
import { actors, users } from "../schema";

export function userActorId(userId: string): string {
  return `user:${userId}`;
}

export async function getUserByEmail(db: Executor, email: string) {
  const [u] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return u ?? null;
}

export async function getUserById(db: Executor, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u ?? null;
}

export async function countUsers(db: Executor): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return r.n;
}

/** Creates (or updates) a user and the actor that represents them in the event log. */
export async function upsertUser(db: Executor, params: { email: string; name: string; passwordHash: string; roles: Role[] }) {
  const email = params.email.trim().toLowerCase();
  const [u] = await db
    .insert(users)
    .values({ email, name: params.name, passwordHash: params.passwordHash, roles: params.roles })
    .onConflictDoUpdate({ target: users.email, set: { name: params.name, passwordHash: params.passwordHash, roles: params.roles } })
    .returning();
  await ensureActor(db, { id: userActorId(u.id), kind: "user", displayName: u.name, userId: u.id });
  return u;
}

export async function ensureActor(db: Executor, params: { id: string; kind: "user" | "worker" | "cli" | "system" | "agent"; displayName: string; userId?: string }) {
  await db
    .insert(actors)
    .values({ id: params.id, kind: params.kind, displayName: params.displayName, userId: params.userId ?? null })
    .onConflictDoUpdate({ target: actors.id, set: { displayName: params.displayName } });
}

export async function listActors(db: Executor) {
  return db.select().from(actors);
}
