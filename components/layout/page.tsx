import type { ReactNode } from "react";
import { describeMissingPermission, type Action, type Principal } from "@/lib/auth/roles";
import * as ui from "@/components/ui/styles";

/** A console page's head: its title, what the page is for, and the page's own actions on the right. */
export function PageHeader({ title, children, actions, testId }: { title: ReactNode; children?: ReactNode; actions?: ReactNode; testId?: string }) {
  return (
    <header className="flex items-start justify-between gap-4" data-testid={testId}>
      <div className="grid gap-1">
        <h1 className="text-xl font-[650]">{title}</h1>
        {children ? <div className="text-muted">{children}</div> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </header>
  );
}

/** What a person sees on a page their roles do not open: which permission it needs and who has it. */
export function Refused({ user, permission, testId }: { user: Principal; permission: Action; testId?: string }) {
  return (
    <p className={ui.notice} data-testid={testId}>
      {describeMissingPermission(user, permission)}
    </p>
  );
}
