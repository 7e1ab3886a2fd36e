import { parseArgs, type ParseArgsConfig } from "node:util";

/**
 * A bench's options from the command line (node:util parseArgs, strict). An unknown or malformed option
 * (`--help`, `--rows` without a value) prints what was wrong and the options the bench takes, and exits 2,
 * instead of Node's stack trace.
 */
export function benchArgs<O extends NonNullable<ParseArgsConfig["options"]>>(name: string, options: O) {
  try {
    return parseArgs({ options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    const list = Object.entries(options).map(([k, o]) => `--${k}${o.type === "string" ? " VALUE" : ""}`).join(", ");
    console.error(`${name}: ${e instanceof Error ? e.message : String(e)}\nOptions: ${list || "none"}. The bench's header comment (bench/${name.replace(/^bench:/, "")}.ts) says what each does.`);
    process.exit(2);
  }
}
