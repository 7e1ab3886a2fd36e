import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { lookupInvite } from "@/db/queries/users";
import { LinkPasswordForm } from "@/components/admin/password-forms";
import { StandalonePage } from "@/components/layout/standalone";
import { formatUtc } from "@/components/ui/format-utc";

export const metadata: Metadata = { title: "Set your password", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

const REFUSED = {
  used: { title: "This link has already been used", text: "Each invitation or reset link works once (a newer link also replaces an older one). If you did not set your password with it, ask an admin for a new link." },
  expired: { title: "This link has expired", text: "Invitation links are valid for 7 days and reset links for 24 hours. Ask an admin for a new one." },
  unknown: { title: "This link is not valid", text: "It may be incomplete (check that you copied all of it), or the account was deactivated. Ask an admin for a new link." },
} as const;

/** Public: set a password from a one-time invitation or password-reset link. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await lookupInvite(getDb(), token);
  return (
    <StandalonePage>
      {invite.status === "valid" ? (
        <>
          <h1 className="text-xl font-[650]">{invite.purpose === "invite" ? `Welcome, ${invite.user.name}` : "Choose a new password"}</h1>
          <p className="text-muted">
            Set the password for <strong data-testid="invite-email">{invite.user.email}</strong>. This link works once, until {formatUtc(invite.expiresAt)}.
          </p>
          <LinkPasswordForm token={token} email={invite.user.email} />
        </>
      ) : (
        <div className="grid gap-2" role="alert" data-testid="invite-refused" data-status={invite.status}>
          <h1 className="text-xl font-[650]">{REFUSED[invite.status].title}</h1>
          <p>{REFUSED[invite.status].text}</p>
          <p>
            <Link className="text-link underline underline-offset-2" href="/login">
              Go to sign-in
            </Link>
          </p>
        </div>
      )}
    </StandalonePage>
  );
}
