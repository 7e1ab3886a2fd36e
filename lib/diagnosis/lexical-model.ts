import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LexicalModel } from "./lexical";

/** Where `npm run diagnosis:train` writes the model, from the project root. */
export const LEXICAL_MODEL_FILE = "lib/diagnosis/lexical-model.json";

let loaded: LexicalModel | null | undefined;

/**
 * The trained model, read once: beside this module, or from the project root when a bundler moved the
 * module (Next's server chunks). Without the file the diagnosis runs on its rules alone.
 */
export function lexicalModel(): LexicalModel | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  const here = path.join(path.dirname(fileURLToPath(import.meta.url)), "lexical-model.json");
  for (const f of [here, path.join(process.cwd(), LEXICAL_MODEL_FILE)]) {
    try {
      const m = JSON.parse(readFileSync(/*turbopackIgnore: true*/ f, "utf8")) as LexicalModel;
      if (m.version === 1) loaded = m;
      break;
    } catch {
      /* next candidate */
    }
  }
  return loaded;
}
