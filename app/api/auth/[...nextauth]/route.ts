import NextAuth from "next-auth";
import { getToken } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { recordSignOut } from "@/server/auth-audit";
import { authOptions, principalFromToken } from "@/server/auth";

const nextAuth = NextAuth(authOptions);

type Ctx = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth, with sign-out in the audit log: the session is read before next-auth ends it, and the
 * row is written only when next-auth did end it (it clears the session cookie; a sign-out refused for
 * a bad CSRF token does not).
 */
async function handler(req: NextRequest, ctx: Ctx): Promise<Response> {
  const signingOut = req.method === "POST" && req.nextUrl.pathname.endsWith("/signout");
  const who = signingOut ? principalFromToken(await getToken({ req, secret: authOptions.secret })) : null;
  const res: Response = await nextAuth(req, ctx);
  if (who && /(^|[\s,])(__Secure-)?next-auth\.session-token=;/.test(res.headers.get("set-cookie") ?? "")) await recordSignOut(who, req.headers);
  return res;
}

export { handler as GET, handler as POST };
