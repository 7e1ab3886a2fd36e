import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/** `npm run screenshots`: every console page in light and dark, into docs/screenshots/ (not part of npm test). */
export default defineConfig({ ...base, testDir: "e2e/screenshots", testMatch: "**/*.shots.ts" });
