import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canConnect, ensureDatabase } from "./embedded";
import { withConnection } from "./client";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("the embedded PostgreSQL", () => {
  it("is started once per data directory: concurrent processes share it, and the last one to leave stops it, whoever started it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-embedded-"));
    dirs.push(dataDir);
    const [a, b] = await Promise.all([ensureDatabase({ dataDir }), ensureDatabase({ dataDir })]);
    expect([a.owned, b.owned].sort()).toEqual([false, true]);
    expect(a.url).toBe(b.url);
    const owner = a.owned ? a : b;
    const guest = a.owned ? b : a;
    await guest.stop(); // a guest leaving leaves the server running for its starter
    expect(await canConnect(owner.url)).toBe(true);
    await withConnection(owner.url, async (sql) => {
      await sql`create table kept (v text)`;
      await sql`insert into kept values ('still here')`;
    });
    await owner.stop();
    expect(await canConnect(owner.url)).toBe(false);

    // The next start finds the data where it was.
    const again = await ensureDatabase({ dataDir });
    expect(again.owned).toBe(true);
    expect(await withConnection(again.url, async (sql) => [...(await sql`select v from kept`)])).toEqual([{ v: "still here" }]);

    // Its starter leaves first (a CLI command that started it, while `npm start` still runs): the server stays for the other.
    const later = await ensureDatabase({ dataDir });
    expect(later.owned).toBe(false);
    await again.stop();
    expect(await canConnect(later.url)).toBe(true);
    expect(await withConnection(later.url, async (sql) => [...(await sql`select v from kept`)])).toEqual([{ v: "still here" }]);
    await later.stop();
    expect(await canConnect(later.url)).toBe(false);
  }, 120_000);

  it("says which PostgreSQL made a data directory it cannot open, and touches nothing", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-embedded-"));
    dirs.push(dataDir);
    fs.chmodSync(dataDir, 0o755); // reachable by the postgres OS user when run as root: the cluster lives in it
    fs.mkdirSync(path.join(dataDir, "pg"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "pg", "PG_VERSION"), "9\n");
    await expect(ensureDatabase({ dataDir })).rejects.toThrow(/was made by PostgreSQL 9, but this Faultline runs PostgreSQL 1\d.*Your data is untouched/s);
    expect(fs.readdirSync(path.join(dataDir, "pg"))).toEqual(["PG_VERSION"]);
  });

  it("a server whose starter was killed (it could not stop it) is adopted by the next start, which then stops it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-embedded-"));
    dirs.push(dataDir);
    const first = await ensureDatabase({ dataDir });
    expect(first.owned).toBe(true);
    // The starter dies without stopping it: its pid in postgres.json names a process that is gone.
    const gone = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid!;
    const infoFile = path.join(dataDir, "postgres.json");
    fs.writeFileSync(infoFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(infoFile, "utf8")), startedByPid: gone }));
    const users = path.join(dataDir, "postgres.users"); // … and its registration as a user names that pid too
    for (const f of fs.readdirSync(users)) fs.renameSync(path.join(users, f), path.join(users, `${gone}-${f.split("-")[1]}`));
    const next = await ensureDatabase({ dataDir });
    expect(next).toMatchObject({ url: first.url, owned: true });
    await next.stop();
    expect(await canConnect(first.url)).toBe(false);
  }, 120_000);

  it("uses DATABASE_URL when given and starts nothing", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-embedded-"));
    dirs.push(dataDir);
    const h = await ensureDatabase({ dataDir, databaseUrl: "postgres://u:p@127.0.0.1:1/x" });
    expect(h).toMatchObject({ url: "postgres://u:p@127.0.0.1:1/x", owned: false });
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
