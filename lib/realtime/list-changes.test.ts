import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { listChangeCoalescer, type ListChange } from "./list-changes";

describe("missions list change notices", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("sends the first change at once, folds a burst into one notice at the window's end, and never drops the last", () => {
    const sent: ListChange[] = [];
    const c = listChangeCoalescer(100, (x) => sent.push(x));
    c.changed({ missionId: "a", seq: 1 });
    expect(sent).toEqual([{ missionId: "a", seq: 1 }]);
    for (let s = 2; s <= 50; s++) c.changed({ missionId: "a", seq: s });
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([{ missionId: "a", seq: 1 }, { missionId: "a", seq: 50 }]);
    // Changes of several missions in one window: one notice that anything may have changed.
    c.changed({ missionId: "a", seq: 51 });
    c.changed({ missionId: "b", seq: 7 });
    c.changed({ missionId: "a", seq: 52 });
    vi.advanceTimersByTime(100);
    expect(sent.at(-1)).toEqual({ missionId: null, seq: 0 });
    expect(sent).toHaveLength(3);
    // A quiet window ends the cycle: the next change goes out at once again.
    vi.advanceTimersByTime(100);
    c.changed({ missionId: "c", seq: 3 });
    expect(sent).toHaveLength(4);
    expect(sent.at(-1)).toEqual({ missionId: "c", seq: 3 });
    c.close();
  });

  it("at 1,000 commits a second a list socket gets about ten notices, the last one after the last commit", () => {
    const sent: ListChange[] = [];
    const c = listChangeCoalescer(100, (x) => sent.push(x));
    for (let i = 1; i <= 1000; i++) {
      c.changed({ missionId: `m${i % 8}`, seq: i });
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(100);
    expect(sent.length).toBeGreaterThanOrEqual(10);
    expect(sent.length).toBeLessThanOrEqual(11);
    expect(sent.at(-1)).toEqual({ missionId: null, seq: 0 }); // the last window held several missions' commits
    c.close();
  });
});
