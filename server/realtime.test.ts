import { describe, expect, it } from "vitest";
import { parseCookies, sessionTokenFromCookies } from "./realtime";

describe("socket handshake cookie reading", () => {
  it("finds the next-auth session token among other cookies", () => {
    const c = parseCookies("theme=dark; next-auth.session-token=abc.def; next-auth.csrf-token=x%7Cy");
    expect(sessionTokenFromCookies(c, false)).toBe("abc.def");
    expect(c["next-auth.csrf-token"]).toBe("x|y");
  });
  it("reassembles a token next-auth split into chunks", () => {
    expect(sessionTokenFromCookies(parseCookies("next-auth.session-token.0=aaa; next-auth.session-token.1=bbb"), false)).toBe("aaabbb");
  });
  it("on https only the __Secure- cookie counts", () => {
    const c = parseCookies("next-auth.session-token=plain; __Secure-next-auth.session-token=secure");
    expect(sessionTokenFromCookies(c, true)).toBe("secure");
    expect(sessionTokenFromCookies(parseCookies("next-auth.session-token=plain"), true)).toBeNull();
  });
  it("no cookie, no token", () => {
    expect(sessionTokenFromCookies(parseCookies(undefined), false)).toBeNull();
  });
});
