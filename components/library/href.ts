/** Library URLs: filters live in the query string so a view can be shared. */

export type Params = Record<string, string | string[] | undefined>;

/** `/library?…` with `changes` applied to `params` (undefined or [] removes a key); page resets unless changed. */
export function libraryHref(params: Params, changes: Params, base = "/library"): string {
  const next: Params = { ...params, page: undefined, ...changes };
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(next)) {
    if (v === undefined || v === "") continue;
    for (const x of Array.isArray(v) ? v : [v]) if (x !== "") sp.append(k, x);
  }
  const s = sp.toString();
  return s ? `${base}?${s}` : base;
}

/** All values of a key (repeated or comma-separated). */
export function listParam(params: Params, key: string): string[] {
  const v = params[key];
  return (Array.isArray(v) ? v : v ? [v] : []).flatMap((x) => x.split(",")).map((x) => x.trim()).filter(Boolean);
}

export function oneParam(params: Params, key: string): string {
  const v = params[key];
  return (Array.isArray(v) ? v[0] : v) ?? "";
}
