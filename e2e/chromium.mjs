// The browser the e2e suite drives: Debian's Chromium unless CHROMIUM_PATH names another. One place for
// playwright.config.ts and for `npm test`'s check before it starts (scripts/test.mjs).
import fs from "node:fs";

export const chromiumPath = () => process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Why the browser cannot run (what, why, what to do), or null when the executable is there. */
export function chromiumMissing() {
  const p = chromiumPath();
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return null;
  } catch (err) {
    const why = err && err.code === "ENOENT" ? "there is no file there" : `it cannot be run (${err && err.code})`;
    return (
      `npm test: the end-to-end tests need Chromium at ${p}, but ${why}.\n` +
      `Install it (Debian/Ubuntu: apt-get update && apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium or Chrome executable, then run npm test again.\n` +
      `(.ci/run installs it on a fresh machine.)`
    );
  }
}
