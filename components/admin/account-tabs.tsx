import Link from "next/link";
import * as ui from "@/components/ui/styles";

/** The account pages: API tokens and password. */
export function AccountTabs({ current }: { current: "tokens" | "password" }) {
  const tabs = [
    { key: "tokens", href: "/account/tokens", label: "API tokens" },
    { key: "password", href: "/account/password", label: "Password" },
  ] as const;
  return (
    <nav className={ui.cx(ui.segmented, "justify-self-start")} aria-label="Account">
      {tabs.map((t) => (
        <Link key={t.key} href={t.href} className={ui.segment(t.key === current)} aria-current={t.key === current ? "page" : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
