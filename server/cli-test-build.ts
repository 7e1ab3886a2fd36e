import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { TestProject } from "vitest/node";

/**
 * Vitest global setup: the CLI (server/cli.ts) compiled once per test run, for the tests that run it as a
 * separate process many times (server/cli.test.ts, cli-autonomous, lab-command, watch-command). Through
 * bin/faultline.mjs, tsx loads and transpiles every module of the CLI on each run: about 2 s of CPU per
 * command on the CI machine, most of those tests' time. The compiled CLI is the same sources, bundled by
 * esbuild (which tsx also uses), starting in about 0.5 s. bin/faultline.mjs itself stays under test
 * (cli.test.ts "runs from any directory", claude-hooks-snippet, mcp-gateway, lab-record, trace-command).
 *
 * Each module's `import.meta.url` / `dirname` / `filename` keep naming its source file, so files read
 * beside a module (migrations, the lexical model, the starter library, recordings) are found as from the
 * sources. The bundle sits under node_modules/.cache so that its imports of packages resolve from the
 * project; one directory per run (several engineers run tests at once), removed at teardown.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin", "faultline.mjs");

export async function buildCli(outdir: string): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [path.join(ROOT, "server", "cli.ts")],
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    outdir,
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
    plugins: [
      {
        name: "source-module-paths",
        setup(b) {
          b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
            if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            const text = await fs.promises.readFile(args.path, "utf8");
            if (!text.includes("import.meta.")) return undefined;
            const contents = text
              .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
              .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
              .replaceAll("import.meta.filename", JSON.stringify(args.path));
            const ext = path.extname(args.path).slice(1).replace(/^[cm]/, "");
            return { contents, loader: ext as "ts" | "tsx" | "js" | "jsx" };
          });
        },
      },
    ],
  });
  return path.join(outdir, "cli.mjs");
}

export default async function setup(project: TestProject) {
  // In watch mode sources change between reruns: the CLI runs from them, through tsx.
  if (project.config.watch) {
    project.provide("cliEntry", BIN);
    return undefined;
  }
  const outdir = path.join(ROOT, "node_modules", ".cache", `faultline-cli-test-${process.pid}`);
  let entry = BIN;
  try {
    entry = await buildCli(outdir);
  } catch (err) {
    // Without esbuild (a dependency of drizzle-kit and tsx) the tests run the CLI through tsx, only slower.
    console.warn(`[cli-test-build] could not compile the CLI (${(err as Error).message.split("\n")[0]}); the CLI tests run bin/faultline.mjs`);
  }
  project.provide("cliEntry", entry);
  return () => fs.rmSync(outdir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The CLI to run in tests: the compiled server/cli.ts (or bin/faultline.mjs when it could not be compiled). */
    cliEntry: string;
  }
}
