/**
 * `git diff` output (unified, git's extended headers) read into files, hunks and lines for the
 * diff pages. Paths come from the headers, C-quoted ones unquoted; a file's lines stop at
 * `maxLines` and a line's text at `maxLineChars`, each cut marked so a page can say so and link to
 * the whole file.
 */

export type DiffLineKind = "add" | "del" | "ctx";

export interface DiffLine {
  kind: DiffLineKind;
  /** Line number in the old file (context and removed lines). */
  oldNo?: number;
  /** Line number in the new file (context and added lines). */
  newNo?: number;
  text: string;
  /** Followed by `\ No newline at end of file`. */
  noNewline?: true;
  /** The text was longer than `maxLineChars` and is cut. */
  cut?: true;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** What git prints after the second `@@`: the enclosing function or section, if any. */
  section: string;
  lines: DiffLine[];
}

export type DiffFileStatus = "added" | "deleted" | "modified" | "renamed" | "copied";

export interface DiffFile {
  oldPath: string;
  newPath: string;
  status: DiffFileStatus;
  oldMode?: string;
  newMode?: string;
  /** `similarity index` of a rename or copy, in percent. */
  similarity?: number;
  binary: boolean;
  hunks: DiffHunk[];
  /** Lines kept in `hunks` (context included). */
  lineCount: number;
  /** Lines were left out: the file had more than `maxLines`, or the text ended inside it. */
  cut: boolean;
}

export interface ParseLimits {
  maxLinesPerFile: number;
  maxLineChars: number;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * A path as git prints it: as is, or C-quoted (`"a\tb"`, octal bytes `\303\251`) when it holds
 * a quote, a backslash or a control character. Returns the path and where the quoted part ended.
 */
export function unquotePath(text: string, from = 0): { path: string; end: number } {
  if (text[from] !== '"') return { path: text.slice(from), end: text.length };
  const bytes: number[] = [];
  let i = from + 1;
  while (i < text.length && text[i] !== '"') {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length) {
      const n = text[i + 1]!;
      if (/[0-7]/.test(n)) {
        const oct = /^[0-7]{1,3}/.exec(text.slice(i + 1))![0];
        bytes.push(parseInt(oct, 8) & 0xff);
        i += 1 + oct.length;
        continue;
      }
      bytes.push(ESCAPES[n] ?? n.charCodeAt(0));
      i += 2;
      continue;
    }
    for (const b of Buffer.from(c, "utf8")) bytes.push(b);
    i++;
  }
  return { path: Buffer.from(bytes).toString("utf8"), end: Math.min(i + 1, text.length) };
}

/** `a/x b/y` of a `diff --git` line: both paths when they can be told apart, else nothing. */
function gitLinePaths(rest: string): { a: string; b: string } | undefined {
  if (rest.startsWith('"')) {
    const a = unquotePath(rest, 0);
    const tail = rest.slice(a.end + 1);
    const b = tail.startsWith('"') ? unquotePath(tail, 0).path : tail;
    if (!a.path.startsWith("a/") || !b.startsWith("b/")) return undefined;
    return { a: a.path.slice(2), b: b.slice(2) };
  }
  // Unquoted with the same path on both sides: `a/P b/P`, whatever spaces P holds.
  if ((rest.length - 5) % 2 !== 0) return undefined;
  const p = rest.slice(2, 2 + (rest.length - 5) / 2);
  return rest === `a/${p} b/${p}` ? { a: p, b: p } : undefined;
}

/** A path after `--- `/`+++ `: `/dev/null`, or the prefixed path (a tab ends a name holding a space). */
function sidePath(text: string, prefix: string): string | undefined {
  if (text === "/dev/null") return undefined;
  const raw = text.startsWith('"') ? unquotePath(text).path : text.replace(/\t$/, "");
  return raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/**
 * Reads `git diff` text (made with `--src-prefix=a/ --dst-prefix=b/`, no colour). `ended` says
 * whether the text is whole: when it was cut, the last file is marked cut.
 */
export function parseUnifiedDiff(text: string, limits: ParseLimits, ended = true): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: DiffHunk | undefined;
  let oldNo = 0;
  let newNo = 0;
  let inHeader = false;
  const lines = text.split("\n");
  // A final newline leaves an empty last element that is no line.
  if (lines.length && lines[lines.length - 1] === "") lines.pop();

  const keep = (f: DiffFile) => f.lineCount < limits.maxLinesPerFile;
  for (const line of lines) {
    if (line.startsWith("diff --git ")) {
      const paths = gitLinePaths(line.slice("diff --git ".length));
      file = { oldPath: paths?.a ?? "", newPath: paths?.b ?? "", status: "modified", binary: false, hunks: [], lineCount: 0, cut: false };
      files.push(file);
      hunk = undefined;
      inHeader = true;
      continue;
    }
    if (!file) continue;
    if (inHeader) {
      if (line.startsWith("@@ ")) inHeader = false;
      else {
        readHeader(file, line);
        continue;
      }
    }
    if (line.startsWith("@@ ")) {
      const m = HUNK.exec(line);
      if (!m) continue;
      hunk = {
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        section: m[5] ?? "",
        lines: [],
      };
      oldNo = hunk.oldStart;
      newNo = hunk.newStart;
      if (keep(file)) file.hunks.push(hunk);
      else file.cut = true;
      continue;
    }
    if (!hunk) continue;
    const sign = line[0];
    if (sign === "\\") {
      const last = hunk.lines[hunk.lines.length - 1];
      if (last) last.noNewline = true;
      continue;
    }
    const kind: DiffLineKind | undefined = sign === "+" ? "add" : sign === "-" ? "del" : sign === " " || line === "" ? "ctx" : undefined;
    if (!kind) continue;
    const entry: DiffLine = { kind, text: line.slice(1) };
    if (kind !== "add") entry.oldNo = oldNo++;
    if (kind !== "del") entry.newNo = newNo++;
    if (!keep(file)) {
      file.cut = true;
      continue;
    }
    if (entry.text.length > limits.maxLineChars) {
      entry.text = entry.text.slice(0, limits.maxLineChars);
      entry.cut = true;
    }
    hunk.lines.push(entry);
    file.lineCount++;
  }
  if (!ended && file) file.cut = true;
  return files;
}

function readHeader(file: DiffFile, line: string): void {
  const after = (prefix: string) => line.slice(prefix.length);
  if (line.startsWith("new file mode ")) {
    file.status = "added";
    file.newMode = after("new file mode ");
  } else if (line.startsWith("deleted file mode ")) {
    file.status = "deleted";
    file.oldMode = after("deleted file mode ");
  } else if (line.startsWith("old mode ")) file.oldMode = after("old mode ");
  else if (line.startsWith("new mode ")) file.newMode = after("new mode ");
  else if (line.startsWith("similarity index ")) file.similarity = parseInt(after("similarity index "), 10);
  else if (line.startsWith("rename from ")) {
    file.status = "renamed";
    file.oldPath = unquotePath(after("rename from ")).path;
  } else if (line.startsWith("rename to ")) {
    file.status = "renamed";
    file.newPath = unquotePath(after("rename to ")).path;
  } else if (line.startsWith("copy from ")) {
    file.status = "copied";
    file.oldPath = unquotePath(after("copy from ")).path;
  } else if (line.startsWith("copy to ")) {
    file.status = "copied";
    file.newPath = unquotePath(after("copy to ")).path;
  } else if (line.startsWith("index ")) {
    // `index abc..def 100644`: the mode of a file whose mode did not change.
    const mode = /^index \S+ (\d{6})$/.exec(line)?.[1];
    if (mode) file.oldMode = file.newMode = mode;
  } else if (line.startsWith("--- ")) {
    const p = sidePath(after("--- "), "a/");
    if (p !== undefined && !file.oldPath) file.oldPath = p;
  } else if (line.startsWith("+++ ")) {
    const p = sidePath(after("+++ "), "b/");
    if (p !== undefined && !file.newPath) file.newPath = p;
  } else if (line.startsWith("Binary files ") || line === "GIT binary patch") {
    file.binary = true;
  }
  if (file.status === "added" && !file.oldPath) file.oldPath = file.newPath;
  if (file.status === "deleted" && !file.newPath) file.newPath = file.oldPath;
}
