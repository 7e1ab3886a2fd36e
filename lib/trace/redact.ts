/**
 * The trace's redaction list (docs/traces.md): what is never written into a trace, by name. A value is
 * replaced by `[redacted:NAME]`. Keys are matched on object members whose value is a string (a number
 * such as `maxTokens` is not a secret); patterns inside any string; the values of the environment
 * variables marked secret wherever they appear.
 */
export interface KeyRedaction {
  name: string;
  key: RegExp;
}
export interface PatternRedaction {
  name: string;
  pattern: RegExp;
  /** Text every match needs around it: a string without all of it is not searched (the look-behind is slow). */
  needs?: readonly string[];
}

export const KEY_REDACTIONS: readonly KeyRedaction[] = [
  { name: "AUTHORIZATION", key: /^(proxy-)?authorization$/i },
  { name: "COOKIE", key: /^(set-)?cookie$/i },
  { name: "API_KEY", key: /api[-_]?key/i },
  { name: "PASSWORD", key: /passw(or)?d|^pwd$|passphrase/i },
  { name: "TOKEN", key: /(^|[-_a-z])token$|^token$/i },
  { name: "SECRET", key: /secret/i },
  { name: "PRIVATE_KEY", key: /private[-_]?key/i },
];

export const PATTERN_REDACTIONS: readonly PatternRedaction[] = [
  { name: "PRIVATE_KEY", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { name: "BEARER_TOKEN", pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/g },
  /** Faultline API tokens (`flt_…`) and other `fl_`-style tokens. */
  { name: "FAULTLINE_TOKEN", pattern: /\bflt?_[A-Za-z0-9_-]{16,}/g },
  { name: "API_KEY", pattern: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { name: "GITHUB_TOKEN", pattern: /\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { name: "AWS_ACCESS_KEY", pattern: /\bAKIA[0-9A-Z]{16}\b/g },
  /** A password in a URL (`scheme://user:password@host`). */
  { name: "URL_PASSWORD", pattern: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s/@]+(?=@)/gi, needs: ["://", "@"] },
];

/** The environment variables whose values are secret (lib/env.ts keeps them out of error messages too). */
export const SECRET_ENV: readonly string[] = ["NEXTAUTH_SECRET", "FAULTLINE_LLM_PROVIDERS", "DATABASE_URL", "FAULTLINE_TOKEN", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"];

/** Every redaction name, for the trace header. */
export const REDACTION_NAMES: readonly string[] = [...new Set([...KEY_REDACTIONS.map((r) => r.name), ...PATTERN_REDACTIONS.map((r) => r.name), "ENV_SECRET"])];

/**
 * The secret values of an environment (the variables of SECRET_ENV): whole values, and inside
 * FAULTLINE_LLM_PROVIDERS the providers' apiKey, inside DATABASE_URL its password. Short values (under 8
 * characters) are left out: replacing them everywhere would redact ordinary words.
 */
export function secretValues(env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  for (const name of SECRET_ENV) {
    const v = env[name];
    if (!v) continue;
    out.push(v);
    if (name === "FAULTLINE_LLM_PROVIDERS") {
      try {
        for (const p of JSON.parse(v) as Array<{ apiKey?: unknown }>) if (typeof p?.apiKey === "string") out.push(p.apiKey);
      } catch {
        // not JSON: the whole value is redacted already
      }
    }
    if (name === "DATABASE_URL") {
      try {
        const pw = decodeURIComponent(new URL(v).password);
        if (pw) out.push(pw);
      } catch {
        // not a URL
      }
    }
  }
  return [...new Set(out.filter((v) => v.length >= 8))].sort((a, b) => b.length - a.length);
}

export function redactionMarker(name: string): string {
  return `[redacted:${name}]`;
}

/** A redactor: returns a copy of a JSON value with secrets replaced (the input is not changed). */
export function redactor(opts: { secrets?: readonly string[] } = {}): (value: unknown) => unknown {
  const secrets = opts.secrets ?? [];
  const str = (s: string): string => {
    // Cheap pre-check: most strings of a trace hold nothing to redact.
    let out = s;
    for (const v of secrets) if (out.includes(v)) out = out.split(v).join(redactionMarker("ENV_SECRET"));
    for (const r of PATTERN_REDACTIONS) {
      if (r.needs && !r.needs.every((x) => out.includes(x))) continue;
      r.pattern.lastIndex = 0;
      if (r.pattern.test(out)) {
        r.pattern.lastIndex = 0;
        out = out.replace(r.pattern, redactionMarker(r.name));
      }
    }
    return out;
  };
  const keyName = (k: string) => KEY_REDACTIONS.find((r) => r.key.test(k))?.name ?? null;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return str(v);
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const name = typeof x === "string" ? keyName(k) : null;
      out[k] = name && !x.startsWith("[redacted:") ? redactionMarker(name) : walk(x);
    }
    return out;
  };
  return walk;
}
