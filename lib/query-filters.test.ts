import { describe, expect, it } from "vitest";
import { countLabel } from "./query-filters";

describe("countLabel", () => {
  it("shows an exact count as it is and a capped one as at least, never below the rows a list already shows", () => {
    expect(countLabel({ count: 1234, capped: false })).toBe("1,234");
    expect(countLabel({ count: 10_000, capped: true })).toBe("10,000+");
    // A words count cut by its time found 123; the list has shown 200 rows: at least 200.
    expect(countLabel({ count: 123, capped: true }, 200)).toBe("200+");
    expect(countLabel({ count: 1_000, capped: true }, 200)).toBe("1,000+");
    // An exact count stays exact (rows added since it was taken are not guessed at).
    expect(countLabel({ count: 12, capped: false }, 15)).toBe("12");
  });
});
