import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";

/**
 * Sends signed-out page requests to /login. A convenience only: every page, server action, route
 * handler and the socket handshake check the session and permission themselves. /invite/<token> is
 * public (people without a password yet set one there).
 */
export async function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  if (path.startsWith("/invite/")) return NextResponse.next();
  const token = await getToken({ req: request, secret: process.env.NEXTAUTH_SECRET });
  if (token) return NextResponse.next();
  const url = new URL("/login", request.url);
  const back = path + request.nextUrl.search;
  if (back !== "/") url.searchParams.set("callbackUrl", back);
  return NextResponse.redirect(url);
}

export const config = {
  // Pages only: not the API (it answers 401 JSON itself), not auth, static files or the socket.
  matcher: ["/((?!api/|login|_next/|socket\\.io|favicon\\.ico|.*\\.(?:png|svg|ico|txt|webmanifest)$).*)"],
};
