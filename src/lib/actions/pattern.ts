/**
 * GitHub's filter pattern syntax for `branches`, `tags` and `paths` filters, as act's `workflowpattern`
 * (which Gitea 1.25 calls) implements it: a pattern becomes an anchored regular expression where `*` stays
 * within one path segment, `**` crosses segments, `+` and `?` repeat the previous character, `[...]` is a
 * character class of letters and digits, `\` escapes, and a leading `!` negates.
 */

export class PatternError extends Error {
  override name = "PatternError";
}

export interface CompiledPattern {
  /** The pattern without its leading `!`. */
  pattern: string;
  negative: boolean;
  regex: RegExp;
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

function quote(char: string): string {
  return REGEX_SPECIAL.test(char) ? `\\${char}` : char;
}

const isAlnum = (c: string | undefined): boolean =>
  c !== undefined && ((c >= "A" && c <= "z") || (c >= "0" && c <= "9"));

/** The regular expression source for one pattern (without `!`); throws `PatternError` as act refuses. */
export function patternToRegexSource(pattern: string): string {
  let out = "^";
  const errors: string[] = [];
  let pos = 0;
  while (pos < pattern.length) {
    const c = pattern[pos]!;
    if (c === "*") {
      if (pattern[pos + 1] === "*") {
        if (pattern[pos + 2] === "/") {
          out += "(.+/)?";
          pos += 3;
        } else {
          out += ".*";
          pos += 2;
        }
      } else {
        out += "[^/]*";
        pos++;
      }
    } else if (c === "+" || c === "?") {
      // A quantifier of the previous character; at the very start it can only be literal.
      out += pos > 0 ? c : quote(c);
      pos++;
    } else if (c === "[") {
      out += "[";
      pos++;
      if (pattern[pos] === "]") {
        errors.push(`Position: ${pos} Error: Unexpected empty brackets '[]'`);
        pos++;
        continue;
      }
      const start = pos;
      while (pos < pattern.length && pattern[pos] !== "]") {
        const ch = pattern[pos]!;
        if (ch === "-") {
          const before = pattern[pos - 1];
          const after = pattern[pos + 1];
          if (pos <= start || pos + 1 >= pattern.length) {
            errors.push(`Position: ${pos} Error: Invalid range`);
            pos++;
            continue;
          }
          const inRange = (a: string, b: string) =>
            before! >= a && before! <= b && after! >= a && after! <= b && before! <= after!;
          if (!inRange("A", "z") && !inRange("0", "9")) {
            errors.push(`Position: ${pos} Error: Ranges can only include a-z, A-Z, A-z, and 0-9`);
            pos++;
            continue;
          }
          out += `-${after}`;
          pos += 2;
        } else {
          if (!isAlnum(ch)) {
            errors.push(`Position: ${pos} Error: Ranges can only include a-z, A-Z and 0-9`);
            pos++;
            continue;
          }
          out += quote(ch);
          pos++;
        }
      }
      if (pos >= pattern.length || pattern[pos] !== "]") {
        errors.push(`Position: ${pos} Error: Missing closing bracket ']' after '['`);
        pos++;
      }
      out += "]";
      pos++;
    } else if (c === "\\") {
      if (pos + 1 >= pattern.length) {
        errors.push(`Position: ${pos} Error: Missing symbol after \\`);
        pos++;
        continue;
      }
      out += quote(pattern[pos + 1]!);
      pos += 2;
    } else {
      out += quote(c);
      pos++;
    }
  }
  if (errors.length > 0) throw new PatternError(`invalid Pattern '${pattern}': ${errors.join(", ")}`);
  return `${out}$`;
}

export function compilePattern(raw: string): CompiledPattern {
  const negative = raw.startsWith("!");
  const pattern = negative ? raw.slice(1) : raw;
  let regex: RegExp;
  try {
    regex = new RegExp(patternToRegexSource(pattern));
  } catch (err) {
    if (err instanceof PatternError) throw err;
    throw new PatternError(`invalid Pattern '${pattern}': ${(err as Error).message}`);
  }
  return { pattern, negative, regex };
}

export function compilePatterns(raws: readonly string[]): CompiledPattern[] {
  return raws.map(compilePattern);
}

/**
 * For an include list (`branches`, `tags`, `paths`): true when the workflow should be skipped, i.e. no input
 * is left matched after running through the patterns in order (a later `!pattern` un-matches). An empty
 * pattern list never skips; an empty input list always does.
 */
export function skipByIncludes(patterns: readonly CompiledPattern[], inputs: readonly string[]): boolean {
  if (patterns.length === 0) return false;
  for (const input of inputs) {
    let matched = false;
    for (const p of patterns) {
      if (p.regex.test(input)) matched = !p.negative;
    }
    if (matched) return false;
  }
  return true;
}

/**
 * For an ignore list (`branches-ignore`, `tags-ignore`, `paths-ignore`): true when the workflow should be
 * skipped, i.e. every input is ignored by some pattern (a `!pattern` counts for inputs it does NOT match, as
 * act's `Filter` does). An empty pattern list never skips.
 */
export function skipByIgnores(patterns: readonly CompiledPattern[], inputs: readonly string[]): boolean {
  if (patterns.length === 0) return false;
  for (const input of inputs) {
    const ignored = patterns.some((p) => p.regex.test(input) === !p.negative);
    if (!ignored) return false;
  }
  return true;
}

/** Whether `value` passes an include list of raw patterns (later patterns override earlier ones). */
export function matchesFilters(patterns: readonly string[], value: string): boolean {
  return !skipByIncludes(compilePatterns(patterns), [value]);
}
