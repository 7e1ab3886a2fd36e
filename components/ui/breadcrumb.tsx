import Link from "next/link";
import type { ReactNode } from "react";

/** "Library / Versions" above a page's title: links up the trail, then where the page is. */
export function Breadcrumb({ trail, children }: { trail: Array<{ href: string; label: ReactNode }>; children: ReactNode }) {
  return (
    <nav className="text-[13px] text-muted" aria-label="Breadcrumb">
      {trail.map((t) => (
        <span key={t.href}>
          <Link className="text-link underline underline-offset-2" href={t.href}>
            {t.label}
          </Link>{" "}
          /{" "}
        </span>
      ))}
      <span aria-current="page">{children}</span>
    </nav>
  );
}
