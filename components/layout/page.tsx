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

/**
 * A console page: what stands above its head (a breadcrumb), the head (title, `intro`, actions), then the
 * page's content, one under the other.
 */
export function Page({ title, intro, actions, above, className, children }: { title: ReactNode; intro?: ReactNode; actions?: ReactNode; above?: ReactNode; className?: string; children?: ReactNode }) {
  return (
    <div className={ui.cx("grid gap-4", className)}>
      {above}
      <PageHeader title={title} actions={actions}>
        {intro}
      </PageHeader>
      {children}
    </div>
  );
}

export interface RefusedLook {
  testId?: string;
  /** Announced at once (role="alert"): the admin pages, where the refusal is the whole page. */
  alert?: boolean;
  /** Said after the refusal: where the person can go instead. */
  children?: ReactNode;
}

/** What a person sees on a page their roles do not open: which permission it needs and who has it. */
export function Refused({ user, permission, testId, alert, children }: RefusedLook & { user: Principal; permission: Action }) {
  return (
    <p className={ui.notice} role={alert ? "alert" : undefined} data-testid={testId}>
      {describeMissingPermission(user, permission)}
      {children ? <> {children}</> : null}
    </p>
  );
}
