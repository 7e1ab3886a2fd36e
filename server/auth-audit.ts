import type { User } from "next-auth";
import { getDb } from "@/db/client";
import { recordAudit } from "@/db/queries/audit-log";
import { personActor, REMOTE_ADDR_HEADER, type AuditActor } from "@/lib/audit";

/**
 * Sign-in and sign-out in the audit log (issue 6): who, from where (the address server/web.ts puts in
 * x-faultline-remote-addr, the user agent), and for a refused sign-in the email that was tried (never
 * the password).
 */

/** next-auth hands `authorize` the request's headers as a plain record (lower-case names). */
type HeaderRecord = Record<string, unknown> | undefined;

function headerGetter(h: HeaderRecord): { get(name: string): string | null } {
  return {
    get: (name) => {
      const v = h?.[name.toLowerCase()];
      return typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? v[0] : null;
    },
  };
}

/** Someone not signed in: known only by the email they typed. */
function anonymousActor(email: string, h: { get(name: string): string | null }): AuditActor {
  return { id: "anonymous", name: email ? `Unknown (${email})` : "Unknown", via: "web", ip: h.get(REMOTE_ADDR_HEADER) || null, userAgent: h.get("user-agent") || null };
}

/**
 * Wraps a credentials provider's `authorize`: a person signed in (auth.sign_in), or an attempt
 * refused (auth.sign_in_failed, outcome refused) with the email tried. The answer is unchanged.
 */
export function auditedAuthorize<C, R extends User | null>(authorize: (credentials: C, req: { headers?: HeaderRecord }) => Promise<R>): (credentials: C, req: { headers?: HeaderRecord }) => Promise<R> {
  return async (credentials, req) => {
    const user = await authorize(credentials, req);
    const h = headerGetter(req?.headers);
    if (user) {
      await recordAudit(getDb(), personActor({ id: user.id, name: user.name ?? user.email ?? user.id }, "web", h), {
        action: "auth.sign_in",
        summary: `${user.name ?? user.email} signed in${h.get(REMOTE_ADDR_HEADER) ? ` from ${h.get(REMOTE_ADDR_HEADER)}` : ""}.`,
        target: { type: "user", id: user.id },
      });
      return user;
    }
    const raw = (credentials as { email?: unknown } | undefined)?.email;
    const email = typeof raw === "string" ? raw.trim().toLowerCase().slice(0, 200) : "";
    await recordAudit(getDb(), anonymousActor(email, h), {
      action: "auth.sign_in_failed",
      outcome: "refused",
      summary: `Sign-in refused${email ? ` for ${email}` : " (no email given)"}: wrong email or password, or the account cannot sign in.`,
      target: email ? { type: "email", id: email } : null,
      after: { email: email || null },
    });
    return user;
  };
}

/** A person signed out (the session they ended). */
export async function recordSignOut(user: { id: string; name: string }, headers: { get(name: string): string | null }): Promise<void> {
  await recordAudit(getDb(), personActor(user, "web", headers), { action: "auth.sign_out", summary: `${user.name} signed out.`, target: { type: "user", id: user.id } });
}
