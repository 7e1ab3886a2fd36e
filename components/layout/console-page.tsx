import type { ReactNode } from "react";
import { can, type Action, type Principal } from "@/lib/auth/roles";
import { pageUser } from "@/server/page-access";
import { Refused, type RefusedLook } from "./page";

export interface PageGuard<P> {
  /** Where sign-in comes back to: the page's own path (a function of its props for a dynamic route). */
  path: string | ((props: P) => string | Promise<string>);
  /** What the page needs; without it the person sees which permission and who has it. */
  permission: Action;
  refused?: RefusedLook;
}

/**
 * A console page behind one permission. Signed out: the sign-in page, coming back to `path`. Signed in
 * without `permission`: Refused. Otherwise `render` with the person and the page's props (params,
 * searchParams). Every console page opens this way, so none repeats the guard.
 */
export function consolePage<P extends object = object>(guard: PageGuard<P>, render: (user: Principal, props: P) => ReactNode | Promise<ReactNode>) {
  return async function ConsolePage(props: P) {
    const user = await pageUser(typeof guard.path === "string" ? guard.path : await guard.path(props));
    if (!can(user, guard.permission)) return <Refused user={user} permission={guard.permission} {...guard.refused} />;
    return render(user, props);
  };
}
