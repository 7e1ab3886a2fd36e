import { writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { openApiDocument } from "../../server/openapi";

/** Where the client's types live: generated from the OpenAPI document, never written by hand. */
export const TYPES_FILE = path.join(import.meta.dirname, "src", "generated", "openapi.d.ts");

/** The TypeScript types of `/api/v1/openapi.json`, as openapi-typescript prints them. */
export async function clientTypes(): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(openApiDocument())));
  return `/**\n * Generated from Faultline's OpenAPI document by \`npm run client:types\` (packages/client/generate.ts).\n * Do not edit: a test fails when it no longer matches the document.\n */\n\n${astToString(ast)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(TYPES_FILE, await clientTypes());
  console.log(`wrote ${path.relative(process.cwd(), TYPES_FILE)}`);
}
