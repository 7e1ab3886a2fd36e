import Link from "next/link";

/** The account pages: API tokens and password. */
export function AccountTabs({ current }: { current: "tokens" | "password" }) {
  const tabs = [
    { key: "tokens", href: "/account/tokens", label: "API tokens" },
    { key: "password", href: "/account/password", label: "Password" },
  ] as const;
  return (
    <nav className="segmented adm-tabs" aria-label="Account">
      {tabs.map((t) => (
        <Link key={t.key} href={t.href} className={t.key === current ? "is-active" : undefined} aria-current={t.key === current ? "page" : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
