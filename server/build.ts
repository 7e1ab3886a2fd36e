import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = ["app", "components", "lib", "db", "server", "proxy.ts", "next.config.ts", "package-lock.json"];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    max = Math.max(max, newestMtime(path.join(p, e.name)));
  }
  return max;
}

/** True when there is no production build of the console, or a source file changed after it. */
export function buildIsStale(): boolean {
  const id = path.join(ROOT, ".next", "BUILD_ID");
  if (!fs.existsSync(id)) return true;
  const built = fs.statSync(id).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built);
}

/** Runs `next build` when the build is missing or stale. */
export async function ensureBuild(log: (m: string) => void): Promise<void> {
  if (!buildIsStale()) return;
  log("Building the console (next build); this takes a few minutes the first time …");
  await new Promise<void>((resolve, reject) => {
    const b = spawn(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    b.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build exited with ${code}; see the output above.`))));
  });
}
