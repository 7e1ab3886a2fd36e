/** The library's growth from its versions' changelogs (the Library versions page's chart). */
export interface GrowthPoint {
  version: number;
  date: string;
  /** Entries in force after this version (added and restored, minus deprecated). */
  active: number;
  added: number;
  deprecated: number;
}

/** Entries in force after each version, oldest first. */
export function libraryGrowth(versions: ReadonlyArray<{ version: number; createdAt: string; changelog: ReadonlyArray<{ change: string }> }>): GrowthPoint[] {
  let active = 0;
  return [...versions]
    .sort((a, b) => a.version - b.version)
    .map((v) => {
      const count = (c: string) => v.changelog.filter((x) => x.change === c).length;
      const added = count("added") + count("restored");
      const deprecated = count("deprecated");
      active += added - deprecated;
      return { version: v.version, date: v.createdAt.slice(0, 10), active, added, deprecated };
    });
}
