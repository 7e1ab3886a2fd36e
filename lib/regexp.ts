/** `pattern` compiled with `flags`, or null when it is not a valid regular expression. */
export function safeRegExp(pattern: string, flags?: string): RegExp | null {
  try {
    return new RegExp(pattern, flags);
  } catch {
    return null;
  }
}

/** Whether `pattern` is a valid regular expression (a rule's args, an evidence or entry check's output_matches). */
export function isRegExp(pattern: string): boolean {
  return safeRegExp(pattern) !== null;
}
