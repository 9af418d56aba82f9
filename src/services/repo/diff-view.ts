/**
 * Diffs as pages (a commit, a comparison, a pull request's files): every changed file is listed
 * with its counts, but only one page of files is read and shown at a time, at most
 * `filesPerPage` files and about `linesPerPage` changed lines, a single file's diff cut after
 * `linesPerFile` lines. The plan is made from the counts alone (`git diff --numstat`), so a
 * file's page and anchor are known without reading any diff text, and the file list can link
 * every file on every page.
 */
import { NotFound } from "../../lib/errors.ts";
import { parseUnifiedDiff, type DiffFile } from "../../lib/unified-diff.ts";
import { diffText } from "../../git/diff-text.ts";
import type { ChangedPath } from "../../git/pull-diff.ts";

export const DIFF_LIMITS = {
  filesPerPage: 100,
  linesPerPage: 3000,
  /** Gitea's `[git] MAX_GIT_DIFF_LINES`. */
  linesPerFile: 1000,
  /** Gitea's `[git] MAX_GIT_DIFF_LINE_CHARACTERS`. */
  lineChars: 5000,
  /** The most diff text read for one page, whatever the counts said (a one-line minified file...). */
  bytesPerPage: 8 * 1024 * 1024,
};

export interface PlannedFile extends ChangedPath {
  /** The diff page showing this file. */
  page: number;
  /** The id of its box on that page: Gitea's `diff-{sha1 of the path}`. */
  anchor: string;
}

export interface ShownFile {
  file: PlannedFile;
  /** The parsed diff; undefined when git printed nothing for it (the page's byte budget ran out). */
  diff: DiffFile | undefined;
}

export interface DiffPage {
  from: string;
  to: string;
  /** Every changed file, in git's order, with its page. */
  files: PlannedFile[];
  additions: number;
  deletions: number;
  page: number;
  pageCount: number;
  shown: ShownFile[];
}

export function fileAnchor(path: string): string {
  return `diff-${new Bun.CryptoHasher("sha1").update(path).digest("hex")}`;
}

/** What a file weighs on a page: its changed lines, as many as would be shown, and one for its box. */
const weight = (f: ChangedPath, limits: typeof DIFF_LIMITS) => Math.min(f.additions + f.deletions, limits.linesPerFile) + 1;

/** Each file's page: files in order, a new page when one more would pass either limit. */
export function planPages(files: ChangedPath[], limits = DIFF_LIMITS): PlannedFile[] {
  let page = 1;
  let count = 0;
  let lines = 0;
  return files.map((f) => {
    const w = weight(f, limits);
    if (count > 0 && (count + 1 > limits.filesPerPage || lines + w > limits.linesPerPage)) {
      page++;
      count = 0;
      lines = 0;
    }
    count++;
    lines += w;
    return { ...f, page, anchor: fileAnchor(f.path) };
  });
}

/**
 * Page `page` of the diff from `from` to `to` whose changed files are `changed` (as
 * `changedPaths` lists them): the plan, and the diffs of that page's files, read with one `git
 * diff` limited to their paths (a rename's both paths, so git pairs them as before). A page
 * past the last is 404; page 1 of an empty diff is an empty page.
 */
export async function loadDiffPage(gitDir: string, from: string, to: string, changed: ChangedPath[], page: number, limits = DIFF_LIMITS): Promise<DiffPage> {
  const files = planPages(changed, limits);
  const pageCount = files.length ? files[files.length - 1]!.page : 1;
  if (page > pageCount) throw new NotFound();
  const onPage = files.filter((f) => f.page === page);
  const paths = [...new Set(onPage.flatMap((f) => (f.oldPath && f.oldPath !== f.path ? [f.oldPath, f.path] : [f.path])))];
  const { text, ended } = await diffText(gitDir, from, to, paths, limits.bytesPerPage);
  const parsed = parseUnifiedDiff(text, { maxLinesPerFile: limits.linesPerFile, maxLineChars: limits.lineChars }, ended);
  // A path of the page may also bring in another change (a file added where one was renamed
  // away): each planned file takes the parsed diff with its own old and new path.
  const byPaths = new Map<string, DiffFile>();
  for (const d of parsed) byPaths.set(`${d.oldPath}\0${d.newPath}`, d);
  const shown = onPage.map((file) => {
    const old = file.oldPath ?? file.path;
    return { file, diff: byPaths.get(`${old}\0${file.path}`) };
  });
  let additions = 0;
  let deletions = 0;
  for (const f of files) {
    additions += f.additions;
    deletions += f.deletions;
  }
  return { from, to, files, additions, deletions, page, pageCount, shown };
}
