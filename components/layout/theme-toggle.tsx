"use client";

import { useEffect, useState } from "react";
import * as ui from "@/components/ui/styles";

export const THEME_KEY = "faultline-theme";
type Theme = "light" | "dark";

/** Runs before first paint (in <head>): applies the saved theme, else the system preference. */
export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)});if(t!=="light"&&t!=="dark"){t=window.matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}document.documentElement.dataset.theme=t;document.documentElement.style.colorScheme=t}catch(e){}})();`;

function currentTheme(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme | null>(null);
  useEffect(() => setTheme(currentTheme()), []);

  function toggle() {
    const next: Theme = currentTheme() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    document.documentElement.style.colorScheme = next;
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // private mode: the choice lasts for this page only
    }
    setTheme(next);
  }

  const label = theme === "dark" ? "Switch to light theme" : "Switch to dark theme";
  return (
    <button type="button" className={ui.cx(ui.button("ghost"), "theme-toggle")} onClick={toggle} aria-label={theme ? label : "Toggle theme"} title={theme ? label : "Toggle theme"} data-testid="theme-toggle">
      <span aria-hidden="true">{theme === "dark" ? "☀" : "☾"}</span>
      <span className="theme-toggle-text">{theme === "dark" ? "Light" : "Dark"}</span>
    </button>
  );
}
