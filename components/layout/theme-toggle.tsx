"use client";

import { DropdownMenu } from "radix-ui";
import { useEffect, useState } from "react";
import { setThemeAction } from "@/app/(console)/account/actions";
import type { ThemeChoice } from "@/lib/auth/roles";
import * as ui from "@/components/ui/styles";
import { THEME_KEY } from "./theme-script";

function apply(choice: ThemeChoice) {
  const t = choice === "system" ? (window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light") : choice;
  document.documentElement.dataset.theme = t;
  document.documentElement.style.colorScheme = t;
  try {
    localStorage.setItem(THEME_KEY, choice);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

const LABEL: Record<ThemeChoice, string> = { system: "System", light: "Light", dark: "Dark" };

/**
 * The theme menu (Radix DropdownMenu: arrow keys, Escape, focus return): follow the system, light or
 * dark. Signed in, the choice is saved with the person and follows them to any browser.
 */
export function ThemeToggle({ saved, signedIn = false }: { saved?: ThemeChoice; signedIn?: boolean }) {
  const [choice, setChoice] = useState<ThemeChoice | null>(saved ?? null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (choice !== null) return;
    const stored = localStorage.getItem(THEME_KEY);
    setChoice(stored === "light" || stored === "dark" ? stored : "system");
  }, [choice]);
  // Following the system: a change of the system's theme applies at once.
  useEffect(() => {
    if (choice !== "system") return;
    const mq = window.matchMedia("(prefers-color-scheme: dark)");
    const on = () => apply("system");
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, [choice]);

  async function choose(next: ThemeChoice) {
    setChoice(next);
    apply(next);
    setError(null);
    if (!signedIn) return;
    const r = await setThemeAction({ theme: next });
    if (r.status === "error") setError(`Your choice applies here, but could not be saved: ${r.error.message}`);
  }

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className={ui.button("ghost")} data-testid="theme-toggle" aria-label={`Theme: ${choice ? LABEL[choice] : "…"}`}>
        <span aria-hidden="true">◐</span> {choice ? LABEL[choice] : "Theme"}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="z-50 min-w-40 rounded-md border border-border bg-surface p-1 text-fg shadow-card" sideOffset={4} align="start">
          <DropdownMenu.Label className="px-2 py-1 text-xs text-muted">Theme{signedIn ? " (saved with your account)" : ""}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={choice ?? undefined} onValueChange={(v) => void choose(v as ThemeChoice)}>
            {(["system", "light", "dark"] as const).map((t) => (
              <DropdownMenu.RadioItem key={t} value={t} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 outline-none data-[highlighted]:bg-surface-2" data-testid={`theme-${t}`}>
                <span className="w-3" aria-hidden="true">
                  <DropdownMenu.ItemIndicator>✓</DropdownMenu.ItemIndicator>
                </span>
                {t === "system" ? "Follow the system" : LABEL[t]}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          {error ? (
            <p role="alert" className="m-0 max-w-60 px-2 py-1 text-sm text-failed">
              {error}
            </p>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
