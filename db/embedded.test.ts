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
  it("is started once per data directory: concurrent processes share it, and only its starter stops it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-embedded-"));
    dirs.push(dataDir);
    const [a, b] = await Promise.all([ensureDatabase({ dataDir }), ensureDatabase({ dataDir })]);
    expect([a.owned, b.owned].sort()).toEqual([false, true]);
    expect(a.url).toBe(b.url);
    const owner = a.owned ? a : b;
    const guest = a.owned ? b : a;
    await guest.stop(); // a guest's stop leaves the server running
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
    await again.stop();
  }, 120_000);

  it("a server whose starter was killed (it could not stop it) is adopted by the next start, which then stops it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-embedded-"));
    dirs.push(dataDir);
    const first = await ensureDatabase({ dataDir });
    expect(first.owned).toBe(true);
    // The starter dies without stopping it: its pid in postgres.json names a process that is gone.
    const gone = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid!;
    const infoFile = path.join(dataDir, "postgres.json");
    fs.writeFileSync(infoFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(infoFile, "utf8")), startedByPid: gone }));
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
