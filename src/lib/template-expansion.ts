/**
 * Template repositories' `.gitea/template` (Gitea's services/repository/generate.go): which files of a
 * generated repository have variables expanded and which are left out, the variables themselves, and
 * the expansion with Go's os.Expand syntax. Pure: the caller reads and writes the files.
 */
import { compileGlob, globMatches } from "./glob.ts";

/** Where the rules live in a template's tree; the file itself never reaches the generated repository. */
export const TEMPLATE_RULES_PATH = ".gitea/template";

/** Gitea reads at most this much of the rules file and of a file it expands. */
export const TEMPLATE_FILE_LIMIT = 1024 * 1024;

export interface TemplateRules {
  /** Globs (separator `/`) of files whose content and path are expanded. */
  expand: string[];
  /** Globs of files and directories left out of the generated repository. */
  exclude: string[];
}

/**
 * Parses `.gitea/template`: one glob a line, `#` comments and blank lines skipped, `[expand]` (the
 * default) and `[exclude]` switch the section; an unknown `[section]` is ignored, as is a glob that
 * does not compile, as Gitea logs and skips both.
 */
export function parseTemplateRules(content: string): TemplateRules {
  const rules: TemplateRules = { expand: [], exclude: [] };
  let current = rules.expand;
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("[") && line.endsWith("]")) {
      if (line === "[expand]") current = rules.expand;
      else if (line === "[exclude]") current = rules.exclude;
      continue;
    }
    if (compiles(line)) current.push(line);
  }
  return rules;
}

function compiles(glob: string): boolean {
  try {
    compileGlob(glob, ["/"]);
    return true;
  } catch {
    return false;
  }
}

export function hasRules(rules: TemplateRules): boolean {
  return rules.expand.length > 0 || rules.exclude.length > 0;
}

const matchesAny = (globs: string[], path: string) => globs.some((g) => globMatches(g, path, ["/"]));

/** Whether a file is left out: it, or one of the directories holding it, matches an `[exclude]` glob. */
export function isExcluded(rules: TemplateRules, path: string): boolean {
  const parts = path.split("/");
  for (let i = 1; i <= parts.length; i++) {
    if (matchesAny(rules.exclude, parts.slice(0, i).join("/"))) return true;
  }
  return false;
}

/** Whether a file's content and path are expanded. */
export function isExpanded(rules: TemplateRules, path: string): boolean {
  return matchesAny(rules.expand, path);
}

// ---- the variables ----

/** Splits a name into words at `_`, `-`, spaces and other punctuation, and at case changes (`fooBar`, `HTTPServer`). */
function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
}

const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();

/**
 * The case transformers every name-like variable gets as `${NAME_<T>}` (Gitea's defaultTransformers,
 * huandu/xstrings and x/text/cases). `Abc_Def-XYZ` gives snake `abc_def_xyz`, kebab `abc-def-xyz`,
 * camel `abcDefXyz`, pascal `AbcDefXyz`, title `Abc_def-Xyz` (title case breaks words at spaces and
 * hyphens, not underscores).
 */
export const TRANSFORMERS: ReadonlyArray<readonly [string, (s: string) => string]> = [
  ["SNAKE", (s) => words(s).map((w) => w.toLowerCase()).join("_")],
  ["KEBAB", (s) => words(s).map((w) => w.toLowerCase()).join("-")],
  ["CAMEL", (s) => words(s).map((w, i) => (i === 0 ? w.toLowerCase() : capital(w))).join("")],
  ["PASCAL", (s) => words(s).map(capital).join("")],
  ["LOWER", (s) => s.toLowerCase()],
  ["UPPER", (s) => s.toUpperCase()],
  ["TITLE", (s) => s.replace(/[^\s\-]+/g, capital)],
];

export interface RepoFacts {
  name: string;
  owner: string;
  description: string;
  /** The web link, `{ROOT_URL}{owner}/{name}`. */
  link: string;
  httpsUrl: string;
  sshUrl: string;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * Gitea's expansion table: dates (of `now`, in the server's time zone), the generated repository's
 * `REPO_*` and the template's `TEMPLATE_*` facts; names, owners and the month's English name also
 * with every transformer.
 */
export function templateVariables(generated: RepoFacts, template: RepoFacts, now: Date): Map<string, string> {
  const pad = (n: number) => String(n).padStart(2, "0");
  const vars = new Map<string, string>();
  const put = (name: string, value: string, transform: boolean) => {
    vars.set(name, value);
    if (transform) for (const [suffix, fn] of TRANSFORMERS) vars.set(`${name}_${suffix}`, fn(value));
  };
  put("YEAR", String(now.getFullYear()), false);
  put("MONTH", pad(now.getMonth() + 1), false);
  put("MONTH_ENGLISH", MONTHS[now.getMonth()]!, true);
  put("DAY", pad(now.getDate()), false);
  put("REPO_NAME", generated.name, true);
  put("TEMPLATE_NAME", template.name, true);
  put("REPO_DESCRIPTION", generated.description, false);
  put("TEMPLATE_DESCRIPTION", template.description, false);
  put("REPO_OWNER", generated.owner, true);
  put("TEMPLATE_OWNER", template.owner, true);
  put("REPO_LINK", generated.link, false);
  put("TEMPLATE_LINK", template.link, false);
  put("REPO_HTTPS_URL", generated.httpsUrl, false);
  put("TEMPLATE_HTTPS_URL", template.httpsUrl, false);
  put("REPO_SSH_URL", generated.sshUrl, false);
  put("TEMPLATE_SSH_URL", template.sshUrl, false);
  return vars;
}

// ---- Go's os.Expand ----

const isSpecial = (c: string) => "*#$@!?-0123456789".includes(c);
const isAlnum = (c: string) => /^[A-Za-z0-9_]$/.test(c);

/** Go's getShellName: the name after a `$` and how many characters it took. */
function shellName(s: string): [string, number] {
  if (s[0] === "{") {
    if (s.length > 2 && isSpecial(s[1]!) && s[2] === "}") return [s[1]!, 3];
    for (let i = 1; i < s.length; i++) {
      if (s[i] === "}") return i === 1 ? ["", 2] : [s.slice(1, i), i + 1];
    }
    return ["", 1];
  }
  if (isSpecial(s[0]!)) return [s[0]!, 1];
  let i = 0;
  while (i < s.length && isAlnum(s[i]!)) i++;
  return [s.slice(0, i), i];
}

/**
 * Expands `$NAME` and `${NAME}` as Go's os.Expand does with Gitea's mapping: a known variable is its
 * value, an unknown one its bare name (Gitea's mapping returns the key, so `$HOME` becomes `HOME`);
 * malformed `${` and `${}` are dropped, a `$` followed by no name stays. Strings are handled per
 * UTF-16 unit; the syntax is ASCII, so byte strings passed as latin1 expand byte for byte.
 */
export function expandVariables(src: string, vars: Map<string, string>): string {
  let out = "";
  let i = 0;
  for (let j = 0; j < src.length; j++) {
    if (src[j] !== "$" || j + 1 >= src.length) continue;
    out += src.slice(i, j);
    const [name, width] = shellName(src.slice(j + 1));
    if (name === "" && width > 0) {
      // bad syntax: eaten
    } else if (name === "") {
      out += "$";
    } else {
      out += vars.get(name) ?? name;
    }
    j += width;
    i = j + 1;
  }
  return out + src.slice(i);
}

// ---- expanded paths ----

const RESERVED = /[<>:"/\\|?*\u0000-\u001f]|^(con|prn|aux|nul|com\d|lpt\d)$/gi;

/**
 * Gitea's filePathSanitize for an expanded path: characters no file name may hold (and Windows'
 * reserved names) become `_`, a leading `..` becomes `__`, a `.git` component `_git`, and the path is
 * cleaned, so an expansion can never climb out of the tree or into a `.git` directory.
 */
export function sanitizeExpandedPath(path: string): string {
  const fields = path.split("/").map((f) => {
    let field = f.replace(RESERVED, "_").trim();
    if (field.startsWith("..")) field = `__${field.slice(2)}`;
    if (field.toLowerCase() === ".git") field = `_${field.slice(1)}`;
    return field;
  });
  return cleanPath(fields.join("/").replace(/^\/+|\/+$/g, ""));
}

/** Go's filepath.Clean for a relative path. */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(part);
  }
  return out.length === 0 ? "." : out.join("/");
}
