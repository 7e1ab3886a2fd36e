#!/usr/bin/env node
// The faultline CLI. TypeScript sources run through tsx, so the checkout needs no compile step.
import { register } from "tsx/esm/api";

register();
await import("../server/cli.ts");
