/**
 * EditorConfig (https://spec.editorconfig.org), as editorconfig-core-go v2 reads it for Gitea: the
 * file's sections and the definition they give a file name, with the format's own glob dialect.
 * Pure: text in, values out.
 */

/** The fields Gitea's API shows (editorconfig-core-go's Definition JSON), each omitted when unset. */
export interface EditorConfigDefinition {
  charset?: string;
  indent_style?: string;
  indent_size?: string;
  end_of_line?: string;
}

export interface EditorConfigSection {
  selector: string;
  /** Properties, keys lowercased, in the order written. */
  props: Map<string, string>;
}

const MAX_SECTION_LENGTH = 4096;
const MAX_PROPERTY_LENGTH = 1024;
const MAX_VALUE_LENGTH = 4096;

/**
 * Parses an .editorconfig: `[glob]` sections of `key = value` lines (`:` also separates, as in
 * go-ini), `#`/`;` comment lines and comments after whitespace; keys are case-insensitive; a
 * section written twice is one section (go-ini's merge). Properties before any section (`root`)
 * are not part of any definition.
 */
export function parseEditorConfig(text: string): EditorConfigSection[] {
  const sections = new Map<string, EditorConfigSection>();
  let current: EditorConfigSection | undefined;
  for (const raw of text.replace(/^\uFEFF/, "").split(/\r?\n|\r/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      const close = line.lastIndexOf("]");
      if (close < 0) {
        current = undefined;
        continue;
      }
      const selector = line.slice(1, close);
      if (selector.length > MAX_SECTION_LENGTH) {
        current = undefined;
        continue;
      }
      current = sections.get(selector);
      if (!current) {
        current = { selector, props: new Map() };
        sections.set(selector, current);
      }
      continue;
    }
    if (!current) continue;
    const sep = line.search(/[=:]/);
    if (sep <= 0) continue;
    const key = line.slice(0, sep).trim().toLowerCase();
    const value = line
      .slice(sep + 1)
      .replace(/\s[#;].*$/, "")
      .trim();
    if (!key || key.length > MAX_PROPERTY_LENGTH || value.length > MAX_VALUE_LENGTH) continue;
    current.props.set(key, value);
  }
  return [...sections.values()];
}

/**
 * editorconfig-core-go's GetDefinitionForFilename: every section whose glob matches `/<name>`
 * (a glob without `/` matches in any directory, one with `/` from the root), the later sections
 * winning per property.
 */
export function definitionFor(sections: EditorConfigSection[], filename: string): EditorConfigDefinition {
  const name = filename.startsWith("/") ? filename : `/${filename}`;
  const def: EditorConfigDefinition = {};
  const fields = [
    ["charset", true],
    ["indent_style", true],
    ["indent_size", false],
    ["end_of_line", true],
  ] as const;
  for (let i = sections.length - 1; i >= 0; i--) {
    const s = sections[i]!;
    let selector = s.selector;
    if (!selector.startsWith("/")) selector = selector.includes("/") ? `/${selector}` : `/**/${selector}`;
    if (!globMatch(selector, name)) continue;
    for (const [field, lower] of fields) {
      const v = s.props.get(field);
      if (def[field] === undefined && v) def[field] = lower ? v.toLowerCase() : v;
    }
  }
  return def;
}

// An EditorConfig glob, compiled to token sequences (one per brace alternative) and matched by
// memoised search, never by a backtracking regular expression: a hostile .editorconfig costs at
// most tokens x name length steps per alternative.

type Token =
  | { t: "lit"; c: string }
  | { t: "any" }
  | { t: "star" }
  | { t: "dstar" }
  | { t: "class"; neg: boolean; ranges: [number, number][] }
  | { t: "num"; lo: number; hi: number };

type Node = Token | { t: "alt"; options: Node[][] };

const MAX_ALTERNATIVES = 256;

function bracesBalanced(p: string): boolean {
  let open = 0;
  let close = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "\\") i++;
    else if (p[i] === "{") open++;
    else if (p[i] === "}") close++;
  }
  return open === close;
}

/** Finds the `}` closing the brace at `from` (nesting and escapes honoured); -1 when none. */
function closingBrace(p: string, from: number): { end: number; comma: boolean } {
  let depth = 0;
  let comma = false;
  for (let i = from + 1; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return { end: i, comma };
      depth--;
    } else if (c === "," && depth === 0) comma = true;
  }
  return { end: -1, comma };
}

function parseGlob(p: string, balanced: boolean): Node[] {
  const out: Node[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === "\\" && i + 1 < p.length) {
      out.push({ t: "lit", c: p[i + 1]! });
      i += 2;
    } else if (c === "*") {
      if (p[i + 1] === "*") {
        out.push({ t: "dstar" });
        i += 2;
      } else {
        out.push({ t: "star" });
        i += 1;
      }
    } else if (c === "/" && p.startsWith("**/", i + 1)) {
      // `/**/`: one slash, or a slash, anything, a slash (zero or more directories).
      out.push({ t: "alt", options: [[{ t: "lit", c: "/" }], [{ t: "lit", c: "/" }, { t: "dstar" }, { t: "lit", c: "/" }]] });
      i += 4;
    } else if (c === "?") {
      out.push({ t: "any" });
      i += 1;
    } else if (c === "[") {
      const cls = parseClass(p, i);
      if (cls) {
        out.push(cls.token);
        i = cls.next;
      } else {
        out.push({ t: "lit", c });
        i += 1;
      }
    } else if (c === "{") {
      const { end, comma } = closingBrace(p, i);
      const inner = end >= 0 ? p.slice(i + 1, end) : "";
      const range = /^([+-]?\d{1,9})\.\.([+-]?\d{1,9})$/.exec(inner);
      if (end >= 0 && !comma && range) {
        out.push({ t: "num", lo: Number(range[1]), hi: Number(range[2]) });
        i = end + 1;
      } else if (end >= 0 && comma && balanced) {
        out.push({ t: "alt", options: splitAlternatives(inner).map((a) => parseGlob(a, true)) });
        i = end + 1;
      } else if (end >= 0 && !comma) {
        out.push({ t: "lit", c: "{" }, ...parseGlob(inner, balanced), { t: "lit", c: "}" });
        i = end + 1;
      } else {
        out.push({ t: "lit", c });
        i += 1;
      }
    } else {
      out.push({ t: "lit", c });
      i += 1;
    }
  }
  return out;
}

function splitAlternatives(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

/** `[abc]`, `[a-z]`, `[!x]`/`[^x]`; a `/` before the closing `]` makes the `[` literal. */
function parseClass(p: string, at: number): { token: Token; next: number } | undefined {
  let i = at + 1;
  let neg = false;
  if (p[i] === "!" || p[i] === "^") {
    neg = true;
    i++;
  }
  const chars: number[] = [];
  const ranges: [number, number][] = [];
  for (; i < p.length; i++) {
    let c = p[i]!;
    if (c === "]" && chars.length + ranges.length > 0) {
      for (const ch of chars) ranges.push([ch, ch]);
      return { token: { t: "class", neg, ranges }, next: i + 1 };
    }
    if (c === "/") return undefined;
    if (c === "\\" && i + 1 < p.length) c = p[++i]!;
    if (p[i + 1] === "-" && i + 2 < p.length && p[i + 2] !== "]") {
      let hi = p[i + 2]!;
      let skip = 2;
      if (hi === "\\" && i + 3 < p.length) {
        hi = p[i + 3]!;
        skip = 3;
      }
      ranges.push([c.codePointAt(0)!, hi.codePointAt(0)!]);
      i += skip;
      continue;
    }
    chars.push(c.codePointAt(0)!);
  }
  return undefined;
}

function expand(nodes: Node[], budget: { left: number }): Token[][] {
  let seqs: Token[][] = [[]];
  for (const n of nodes) {
    if (n.t !== "alt") {
      for (const s of seqs) s.push(n);
      continue;
    }
    const options = n.options.flatMap((o) => expand(o, budget));
    const next: Token[][] = [];
    for (const s of seqs) for (const o of options) next.push([...s, ...o]);
    budget.left -= next.length;
    if (budget.left < 0) return [];
    seqs = next;
  }
  return seqs;
}

function matchTokens(tokens: Token[], name: string): boolean {
  const n = name.length;
  if (tokens.length * (n + 1) > 4_000_000) return false;
  const memo = new Uint8Array((tokens.length + 1) * (n + 1)); // 0 unknown, 1 no, 2 yes
  const go = (ti: number, ni: number): boolean => {
    const key = ti * (n + 1) + ni;
    if (memo[key]) return memo[key] === 2;
    let ok = false;
    const tok = tokens[ti];
    if (!tok) ok = ni === n;
    else if (tok.t === "lit") ok = name[ni] === tok.c && go(ti + 1, ni + 1);
    else if (tok.t === "any") ok = ni < n && name[ni] !== "/" && go(ti + 1, ni + 1);
    // A star either ends here or eats one more character: O(1) per state, no backtracking blow-up.
    else if (tok.t === "star") ok = go(ti + 1, ni) || (ni < n && name[ni] !== "/" && go(ti, ni + 1));
    else if (tok.t === "dstar") ok = go(ti + 1, ni) || (ni < n && go(ti, ni + 1));
    else if (tok.t === "class") {
      if (ni < n) {
        const code = name.codePointAt(ni)!;
        const inSet = tok.ranges.some(([lo, hi]) => code >= lo && code <= hi);
        ok = inSet !== tok.neg && go(ti + 1, ni + 1);
      }
    } else {
      const m = /^[+-]?\d{1,10}/.exec(name.slice(ni, ni + 11));
      for (let len = m ? m[0].length : 0; len > 0 && !ok; len--) {
        const text = name.slice(ni, ni + len);
        if (!/\d$/.test(text)) continue;
        const v = Number(text);
        // editorconfig-core-go lists the integers of the range: only their canonical spelling matches.
        const inRange = tok.lo <= tok.hi ? v >= tok.lo && v <= tok.hi : v === tok.hi;
        if (String(v) === text && inRange) ok = go(ti + 1, ni + len);
      }
    }
    memo[key] = ok ? 2 : 1;
    return ok;
  };
  return go(0, 0);
}

/** Whether an EditorConfig glob (already rooted with `/`) matches the `/`-rooted file name. */
export function globMatch(pattern: string, name: string): boolean {
  if (name.length > 2048) return false;
  const seqs = expand(parseGlob(pattern, bracesBalanced(pattern)), { left: MAX_ALTERNATIVES });
  return seqs.some((tokens) => matchTokens(tokens, name));
}
