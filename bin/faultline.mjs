#!/usr/bin/env node
// The faultline CLI. TypeScript sources run through tsx, so the checkout needs no compile step.
// The project's tsconfig is named, not found from the current directory: `@/…` imports must resolve
// wherever the command is run from (a mission's directory, a script's, /tmp).
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
await import("../server/cli.ts");
