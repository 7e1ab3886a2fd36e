import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACTIONS, PERMISSIONS, ROLES } from "./roles";

/** The admin guide's permission matrix is written by hand; this keeps it equal to PERMISSIONS. */
describe("the admin guide's permission matrix (docs/guides/admin.md)", () => {
  const readme = fs.readFileSync(path.join(import.meta.dirname, "../../docs/guides/admin.md"), "utf8");
  const lines = readme.split("\n");
  const head = lines.findIndex((l) => l.startsWith("| Permission |"));
  const cells = (l: string) => l.split("|").slice(1, -1).map((c) => c.trim());

  it("has a column per role, in order", () => {
    expect(head, "the table starting with '| Permission |'").toBeGreaterThan(-1);
    expect(cells(lines[head]).slice(1, 1 + ROLES.length)).toEqual([...ROLES]);
  });

  it("has a row per permission, ✓ exactly where lib/auth/roles.ts allows it", () => {
    const rows: Record<string, string[]> = {};
    for (const l of lines.slice(head + 2)) {
      if (!l.startsWith("|")) break;
      const c = cells(l);
      rows[c[0].replace(/`/g, "")] = c.slice(1, 1 + ROLES.length);
    }
    expect(Object.keys(rows)).toEqual([...ACTIONS]);
    for (const a of ACTIONS) expect(rows[a], a).toEqual(ROLES.map((r) => (PERMISSIONS[a].includes(r) ? "✓" : "—")));
  });
});
