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

/**
 * Digests of recent short canonical texts: the engine and the authority digest the same args several times per
 * proposal. Keyed by the text, never by the args object, so args changed in place get their own digest.
 */
const recentDigests = new Map<string, string>();
const RECENT_DIGESTS = 1024;
const CACHED_TEXT = 4096;

/** `sha256:<hex>` of the canonical JSON of a proposal's args. */
export function argsDigest(args: unknown): string {
  const json = canonicalJson(args);
  let digest = recentDigests.get(json);
  if (digest === undefined) {
    digest = `sha256:${createHash("sha256").update(json).digest("hex")}`;
    if (json.length <= CACHED_TEXT) {
      if (recentDigests.size >= RECENT_DIGESTS) recentDigests.clear();
      recentDigests.set(json, digest);
    }
  }
  return digest;
}
