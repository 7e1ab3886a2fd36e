import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { headers } from "next/headers";
import { cache } from "react";
import { z } from "zod";
import { getDb } from "@/db/client";
import { authenticateApiToken } from "@/db/queries/api-tokens";
import { getUserByEmail, loadSessionUser } from "@/db/queries/users";
import { verifyPassword } from "@/lib/auth/password";
import { auditedAuthorize } from "./auth-audit";
import { roleSchema, type Principal, type Role } from "@/lib/auth/roles";
import { sessionStart } from "@/lib/auth/user-admin";

/**
 * next-auth v4: a credentials provider and a JWT session carrying id, name, email and roles.
 * The session is only proof of who someone is: every server action, route handler and the socket
 * handshake still check `can()` themselves, with roles re-read from the database.
 */

const credentialsSchema = z.object({
  email: z.string().trim().email(),
  password: z.string().min(1).max(200),
});

export const SESSION_MAX_AGE_S = 12 * 60 * 60;

export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      // Every attempt is in the audit log (server/auth-audit.ts): a sign-in, or a refusal with the email tried.
      authorize: auditedAuthorize(async (raw) => {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        const user = await getUserByEmail(getDb(), parsed.data.email);
        // Same answer for an unknown email, a wrong password and a deactivated user: no account probing.
        if (!user || !(await verifyPassword(parsed.data.password, user.passwordHash)) || !user.active) return null;
        return { id: user.id, name: user.name, email: user.email, roles: parseRoles(user.roles) };
      }),
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.id = user.id;
        token.name = user.name;
        token.email = user.email;
        token.roles = user.roles;
        // When this sign-in happened (ms): sessions begun before users.sessions_valid_after no longer count.
        token.authAt = Date.now();
      }
      return token;
    },
    session({ session, token }) {
      const p = principalFromToken(token);
      if (p) session.user = { id: p.id, name: p.name, email: p.email, roles: [...p.roles] };
      session.authAt = sessionStart(token);
      return session;
    },
  },
};

export function parseRoles(roles: readonly string[] | null | undefined): Role[] {
  return (roles ?? []).flatMap((r) => {
    const parsed = roleSchema.safeParse(r);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The principal a decoded next-auth JWT names, or null when it is not one of ours. */
export function principalFromToken(token: JWT | null | undefined): Principal | null {
  if (!token || typeof token.id !== "string" || !token.id) return null;
  return { id: token.id, name: String(token.name ?? token.email ?? "unknown"), email: String(token.email ?? ""), roles: parseRoles(token.roles) };
}

/**
 * Reloads the principal from the database so a removed or deactivated user, a changed role or a
 * password reset (sessions begun before it) takes effect at once, not when the JWT expires. Marks the
 * user's last activity (at most once a minute).
 */
export async function refreshPrincipal(p: Principal | null, sessionStartMs: number | null = null): Promise<Principal | null> {
  if (!p) return null;
  const user = await loadSessionUser(getDb(), p.id, sessionStartMs);
  if (!user) return null;
  return { id: user.id, name: user.name, email: user.email, roles: parseRoles(user.roles), mustChangePassword: user.mustChangePassword, theme: user.theme };
}

/**
 * The person an `Authorization: Bearer flt_…` header names (an API token), or null without one.
 * A revoked, expired or unknown token, or a deactivated user's, is a 401 AppError saying which.
 * The principal's name names the token, so the audit log shows "Ana Operator (token ci-bot)".
 */
export async function principalFromBearer(authorization: string | null): Promise<Principal | null> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!m) return null;
  const { user, token } = await authenticateApiToken(getDb(), m[1]);
  return { id: user.id, name: `${user.name} (token ${token.name})`, email: user.email, roles: parseRoles(user.roles) };
}

/** The request's Authorization header, or null outside a request. */
async function authorizationHeader(): Promise<string | null> {
  try {
    return (await headers()).get("authorization");
  } catch {
    return null;
  }
}

/**
 * The signed-in person, for server components, server actions and route handlers; null when signed
 * out. Without a session, an API token in `Authorization: Bearer` signs the request in. Memoized per request.
 */
export const getPrincipal = cache(async (): Promise<Principal | null> => {
  const session = await getServerSession(authOptions);
  const u = session?.user;
  if (!u?.id) return principalFromBearer(await authorizationHeader());
  return refreshPrincipal({ id: u.id, name: u.name, email: u.email, roles: u.roles ?? [] }, session?.authAt ?? null);
});
