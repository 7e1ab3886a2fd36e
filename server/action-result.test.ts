import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { INTERNAL_ACTION_MESSAGE, toActionError } from "./action-result";

describe("toActionError (what a server action returns instead of throwing)", () => {
  it("an AppError becomes its user message and code", () => {
    const r = toActionError(new AppError("conflict", { message: "internal detail", userMessage: "This gate was already resolved: retry by Ops at 12:00. Nothing was changed." }));
    expect(r).toEqual({ status: "error", error: { code: "conflict", message: "This gate was already resolved: retry by Ops at 12:00. Nothing was changed." } });
  });
  it("field errors carried in details reach the form", () => {
    const fieldErrors = [{ path: "phases[0].name", message: "must be one of …" }];
    const r = toActionError(new AppError("unprocessable", { userMessage: "The definition has 1 problem.", details: { fieldErrors } }));
    expect(r.error.fieldErrors).toEqual(fieldErrors);
  });
  it("a zod error becomes field errors", () => {
    const parsed = z.object({ gateId: z.guid() }).safeParse({ gateId: "nope" });
    const r = toActionError(parsed.error);
    expect(r.error.code).toBe("bad_request");
    expect(r.error.fieldErrors?.[0].path).toBe("gateId");
  });
  it("anything else becomes a generic message: no raw text, no stack", () => {
    const r = toActionError(new Error("duplicate key value violates unique constraint \"x\" at Parser.parseErrorMessage"));
    expect(r).toEqual({ status: "error", error: { code: "internal", message: INTERNAL_ACTION_MESSAGE } });
    expect(JSON.stringify(r)).not.toContain("duplicate key");
  });
});
