import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { cache } from "react";
import { z } from "zod";
import { getDb } from "@/db/client";
import { getUserByEmail, getUserById } from "@/db/queries/users";
import { verifyPassword } from "@/lib/auth/password";
import { roleSchema, type Principal, type Role } from "@/lib/auth/roles";

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
      async authorize(raw) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        const user = await getUserByEmail(getDb(), parsed.data.email);
        // Same answer for an unknown email and a wrong password: no account probing.
        if (!user || !(await verifyPassword(parsed.data.password, user.passwordHash))) return null;
        return { id: user.id, name: user.name, email: user.email, roles: parseRoles(user.roles) };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.id = user.id;
        token.name = user.name;
        token.email = user.email;
        token.roles = user.roles;
      }
      return token;
    },
    session({ session, token }) {
      const p = principalFromToken(token);
      if (p) session.user = { id: p.id, name: p.name, email: p.email, roles: [...p.roles] };
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
 * Reloads the principal from the database so a removed user or a changed role takes effect at once,
 * not when the JWT expires.
 */
export async function refreshPrincipal(p: Principal | null): Promise<Principal | null> {
  if (!p) return null;
  const user = await getUserById(getDb(), p.id);
  if (!user) return null;
  return { id: user.id, name: user.name, email: user.email, roles: parseRoles(user.roles) };
}

/** The signed-in person, for server components, server actions and route handlers; null when signed out. Memoized per request. */
export const getPrincipal = cache(async (): Promise<Principal | null> => {
  const session = await getServerSession(authOptions);
  const u = session?.user;
  if (!u?.id) return null;
  return refreshPrincipal({ id: u.id, name: u.name, email: u.email, roles: u.roles ?? [] });
});
