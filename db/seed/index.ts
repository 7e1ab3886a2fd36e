import { randomBytes } from "node:crypto";
import { ROLES, type Role } from "../../lib/auth/roles";
import { hashPassword } from "../../lib/auth/password";
import type { Db } from "../client";
import { createMission } from "../queries/events";
import { listMissions } from "../queries/missions";
import { countUsers, ensureActor, upsertUser } from "../queries/users";
import { freeLoopbackPort } from "../../lib/net";
import { demoAutonomousMissions, demoMissions } from "./demo";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEntries, type LibraryEntry } from "../../lib/library/entry";
import { loadStarterLibrary } from "../queries/library";

export const SYSTEM_ACTOR = "system:seed";

export function demoEmail(role: Role): string {
  return `${role}@faultline.local`;
}
export function demoPassword(role: Role): string {
  return `faultline-${role}`;
}

export interface SeedResult {
  createdUsers: Array<{ email: string; password: string | null; roles: Role[] }>;
  createdMissions: number;
  /** Library version created by loading the starter library (null when the library already had one). */
  libraryVersion: number | null;
}

/** The starter Failure Mode Reference Library that ships with the product (db/seed/library/*.yaml). */
export const STARTER_LIBRARY_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "library");

export function starterLibrary(dir = STARTER_LIBRARY_DIR): LibraryEntry[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .flatMap((f) => {
      const r = parseEntries(fs.readFileSync(path.join(dir, f), "utf8"));
      if (!r.ok) throw new Error(`The starter library ${f} is invalid:\n${r.errors.map((e) => `  #${e.index ?? "?"} ${e.failureId ?? ""} ${e.path}: ${e.message}`).join("\n")}`);
      return r.entries;
    });
}

/**
 * Seeds an empty database: users (one demo user per role, or with FAULTLINE_DEMO_USERS=0 a single
 * admin with a generated password that is returned to be printed once), then the demo missions.
 */
export async function seedDatabase(db: Db, opts: { demoUsers: boolean; missions?: boolean }): Promise<SeedResult> {
  const result: SeedResult = { createdUsers: [], createdMissions: 0, libraryVersion: null };
  await ensureActor(db, { id: SYSTEM_ACTOR, kind: "system", displayName: "Faultline seed" });
  if ((await countUsers(db)) === 0) {
    if (opts.demoUsers) {
      for (const role of ROLES) {
        await upsertUser(db, { email: demoEmail(role), name: `Demo ${role}`, passwordHash: await hashPassword(demoPassword(role)), roles: [role] });
        result.createdUsers.push({ email: demoEmail(role), password: demoPassword(role), roles: [role] });
      }
    } else {
      const password = randomBytes(12).toString("base64url");
      await upsertUser(db, { email: "admin@faultline.local", name: "Administrator", passwordHash: await hashPassword(password), roles: ["admin", "operator"] });
      result.createdUsers.push({ email: "admin@faultline.local", password, roles: ["admin", "operator"] });
    }
  }
  result.libraryVersion = await loadStarterLibrary(db, starterLibrary(), SYSTEM_ACTOR);
  if (opts.missions !== false && (await listMissions(db, { limit: 1 })).length === 0) {
    // The autonomous demo missions need the recorded provider, which runs in demo mode only.
    for (const definition of [...demoMissions(await freeLoopbackPort()), ...(opts.demoUsers ? demoAutonomousMissions() : [])]) {
      await createMission(db, { definition, actorId: SYSTEM_ACTOR });
      result.createdMissions++;
    }
  }
  return result;
}
