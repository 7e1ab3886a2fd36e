import type { ThemeChoice } from "@/lib/auth/roles";

export const THEME_KEY = "faultline-theme";

/**
 * Applies a theme choice before first paint: `saved` (a signed-in person's choice, kept on the server)
 * wins and is remembered in this browser; without it, this browser's last choice; "system" follows
 * the operating system.
 */
export function themeScript(saved?: ThemeChoice): string {
  return `(function(){try{var s=${JSON.stringify(saved ?? null)};if(s){localStorage.setItem(${JSON.stringify(THEME_KEY)},s)}var c=s||localStorage.getItem(${JSON.stringify(THEME_KEY)});var t=c==="light"||c==="dark"?c:(window.matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light");document.documentElement.dataset.theme=t;document.documentElement.style.colorScheme=t}catch(e){}})();`;
}
export const THEME_SCRIPT = themeScript();
