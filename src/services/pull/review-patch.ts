/**
 * Gitea's CutDiffAroundLine: from the diff of one file, the hunk holding `line` (of the old side
 * when `old`) cut down to the `contextLines` lines ending at it, with the `diff --git`, `---` and
 * `+++` headers and a recomputed hunk header. Empty when the line is in no hunk. Gitea's quirks
 * are kept, since clients compare these texts: `index` lines are dropped, and a hunk that is cut
 * gets a `@@ -a,b +c,d @@` header without the section text.
 */
export function cutDiffAroundLine(diff: string, line: number, old: boolean, contextLines: number): string {
  if (line === 0 || contextLines === 0) return "";
  const headers: string[] = [];
  let hunkHeader: string | undefined;
  const body: string[] = [];
  let currentLine = 0;
  let otherLine = 0;
  let inHunk = false;
  // Read by lines as Gitea's scanner does: a final newline ends the last line, it adds none.
  for (const lof of diff.replace(/\n$/, "").split("\n")) {
    if (lof.startsWith("diff --git ") || (!inHunk && (lof.startsWith("---") || lof.startsWith("+++")))) {
      if (lof.startsWith("diff --git ")) inHunk = false;
      headers.push(lof);
    }
    if (currentLine > line) break;
    if (lof.startsWith("@@")) {
      inHunk = true;
      // The hunk holding the line has been read through.
      if (body.length > 0) break;
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lof);
      if (!m) continue;
      const [beginOld, lenOld, beginNew, lenNew] = [Number(m[1]), Number(m[2] ?? 0), Number(m[3]), Number(m[4] ?? 0)];
      const begin = old ? beginOld : beginNew;
      const end = begin + (old ? lenOld : lenNew);
      otherLine = old ? beginNew : beginOld;
      if (begin <= line && end >= line) {
        hunkHeader = lof;
        currentLine = begin;
      }
    } else if (hunkHeader !== undefined) {
      body.push(lof);
      const c = lof[0];
      if (c === "+") {
        if (old) otherLine++;
        else currentLine++;
      } else if (c === "-") {
        if (old) currentLine++;
        else otherLine++;
      } else if (c !== "\\") {
        currentLine++;
        otherLine++;
      }
    }
  }
  if (currentLine === 0 || hunkHeader === undefined) return "";
  const head = headers.length > 0 ? headers.join("\n") + "\n" : "";
  if (body.length <= contextLines) return head + [hunkHeader, ...body].join("\n");

  let oldBegin = old ? currentLine : otherLine;
  let newBegin = old ? otherLine : currentLine;
  let oldCount = 0;
  let newCount = 0;
  const kept = body.slice(body.length - contextLines);
  for (const l of kept) {
    if (l[0] === "+") {
      newBegin--;
      newCount++;
    } else if (l[0] === "-") {
      oldBegin--;
      oldCount++;
    } else {
      oldBegin--;
      newBegin--;
      oldCount++;
      newCount++;
    }
  }
  return head + [`@@ -${oldBegin},${oldCount} +${newBegin},${newCount} @@`, ...kept].join("\n");
}

/** Gitea's patch2diff: the hunk of a stored patch without its file headers (`diff_hunk`). */
export function patchToDiffHunk(patch: string): string {
  const parts = patch.split("\n@@");
  return parts.length === 2 ? "@@" + parts[1] : "";
}
