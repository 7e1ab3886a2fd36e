import { describe, expect, it } from "vitest";
import { isRegExp, safeRegExp } from "./regexp";
import { ruleSchema } from "./authority/rules";
import { actionCheckSchema } from "./library/entry";
import { evidenceCheckSchema } from "./mission/definition";

describe("regular expressions people write (rules, checks)", () => {
  it("compiles a valid pattern with its flags, and answers null for a broken one", () => {
    expect(safeRegExp("^done$", "m")?.test("a\ndone\nb")).toBe(true);
    expect(safeRegExp("(unclosed")).toBeNull();
    expect(isRegExp("^rm\\s")).toBe(true);
    expect(isRegExp("[a-")).toBe(false);
  });

  it("a rule's args, an entry's check and a step's evidence refuse a broken pattern in their own words", () => {
    const message = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) => r.error?.issues[0]?.message;
    expect(ruleSchema.safeParse({ effect: "deny", args: "^rm" }).success).toBe(true);
    expect(message(ruleSchema.safeParse({ effect: "deny", args: "(rm" }))).toBe("must be a valid regular expression");
    expect(actionCheckSchema.safeParse({ output_matches: "^ok$" }).success).toBe(true);
    expect(message(actionCheckSchema.safeParse({ output_matches: "(ok" }))).toBe("is not a valid regular expression");
    expect(evidenceCheckSchema.safeParse({ output_matches: "^ok$" }).success).toBe(true);
    expect(message(evidenceCheckSchema.safeParse({ output_matches: "(ok" }))).toBe("is not a valid regular expression");
  });
});
