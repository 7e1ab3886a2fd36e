import { createHash } from "node:crypto";

/**
 * The digest an approval binds to (issue 14): sha-256 of the canonical JSON of the args, so the worker
 * can check that what runs is exactly what was approved. Canonical: object keys sorted, no whitespace,
 * `undefined` members dropped (as JSON does), arrays in order.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}

/** `sha256:<hex>` of the canonical JSON of a proposal's args. */
export function argsDigest(args: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(args)).digest("hex")}`;
}
