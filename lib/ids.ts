/** Whether `s` has the shape of a UUID (missions, gates, proposals, patterns, users are keyed by one). */
export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}
