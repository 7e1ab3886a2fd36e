"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, type ReactNode } from "react";
import * as ui from "@/components/ui/styles";

export const PASSWORD_PAGE = "/account/password";

/**
 * For someone whose password an admin set (a new user, a temporary password): every console page
 * leads to /account/password until they choose their own. A convenience, not a permission: what they
 * may do is still checked on the server.
 */
export function MustChangePasswordGate({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const here = pathname === PASSWORD_PAGE;
  useEffect(() => {
    if (!here) router.replace(PASSWORD_PAGE);
  }, [here, router]);
  if (here) return <>{children}</>;
  return (
    <p className={ui.notice} data-testid="must-change-password-redirect">
      Choose your own password first: <Link className="text-link underline underline-offset-2" href={PASSWORD_PAGE}>set it now</Link>.
    </p>
  );
}
