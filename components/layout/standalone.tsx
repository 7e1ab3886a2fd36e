import type { ReactNode } from "react";
import { ThemeToggle } from "./theme-toggle";
import { Brand } from "@/components/ui/brand";
import * as ui from "@/components/ui/styles";

/** A page outside the console (sign-in, an invitation link): one card in the middle, the brand and the theme switch on top. */
export function StandalonePage({ children }: { children: ReactNode }) {
  return (
    <div className={ui.standalone.page}>
      <main className={ui.standalone.card} id="main">
        <div className={ui.standalone.top}>
          <Brand className="" />
          <ThemeToggle />
        </div>
        {children}
      </main>
    </div>
  );
}
