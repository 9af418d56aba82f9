/**
 * Globs as Gitea compiles them (its modules/glob, compatible with gobwas/glob): `*` matches any run
 * of characters except the separators, `**` any run at all, `?` one non-separator character,
 * `[abc]`, `[a-z]`, `[!abc]` classes, `{a,b}` alternatives (nestable), `\` escapes the next
 * character. The whole name must match. Branch rules use `/` as separator; status contexts none;
 * file patterns `.` and `/`.
 */

/** Gitea's glob.IsSpecialByte: a rule name holding one of these is a glob, otherwise a plain name. */
export function hasGlobSyntax(s: string): boolean {
  return /[*?[\]{}\\]/.test(s);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** Compiles a glob; throws on a malformed one (an unclosed class or group). */
export function compileGlob(pattern: string, separators: string[] = []): RegExp {
  const notSep = separators.length ? `[^${separators.map(escapeRe).join("")}]` : "[\\s\\S]";
  let i = 0;
  let depth = 0;
  let out = "";
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "\\") {
      if (i + 1 >= pattern.length) throw new Error("unexpected end of pattern after escape");
      out += escapeRe(pattern[i + 1]!);
      i += 2;
    } else if (c === "*") {
      if (pattern[i + 1] === "*") {
        out += "[\\s\\S]*";
        i += 2;
      } else {
        out += `${notSep}*`;
        i++;
      }
    } else if (c === "?") {
      out += notSep;
      i++;
    } else if (c === "[") {
      const end = pattern.indexOf("]", i + 1);
      if (end < 0) throw new Error("unclosed character class");
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith("!");
      if (negate) body = body.slice(1);
      if (body === "") throw new Error("empty character class");
      let cls = "";
      for (let j = 0; j < body.length; j++) {
        if (body[j + 1] === "-" && j + 2 < body.length) {
          if (body[j]! > body[j + 2]!) throw new Error("invalid character range");
          cls += `${escapeRe(body[j]!)}-${escapeRe(body[j + 2]!)}`;
          j += 2;
        } else cls += escapeRe(body[j]!);
      }
      out += negate ? `[^${cls}]` : `[${cls}]`;
      i = end + 1;
    } else if (c === "{") {
      out += "(?:";
      depth++;
      i++;
    } else if (c === "}" && depth > 0) {
      out += ")";
      depth--;
      i++;
    } else if (c === "," && depth > 0) {
      out += "|";
      i++;
    } else {
      out += escapeRe(c);
      i++;
    }
  }
  if (depth > 0) throw new Error("unclosed alternatives");
  return new RegExp(`^(?:${out})$`);
}

/** Whether `name` matches `pattern`; a malformed pattern matches nothing. */
export function globMatches(pattern: string, name: string, separators: string[] = []): boolean {
  try {
    return compileGlob(pattern, separators).test(name);
  } catch {
    return false;
  }
}
