import { describe, expect, test } from "bun:test";
import { parseUnifiedDiff, unquotePath } from "./unified-diff.ts";

const limits = { maxLinesPerFile: 1000, maxLineChars: 5000 };

describe("parseUnifiedDiff", () => {
  test("hunks, line numbers, sections and a missing final newline", () => {
    const text = [
      "diff --git a/src/a b.ts b/src/a b.ts",
      "index 1111111..2222222 100644",
      "--- a/src/a b.ts\t",
      "+++ b/src/a b.ts\t",
      "@@ -1,3 +1,3 @@ function f() {",
      " one",
      "-two",
      "+TWO",
      " three",
      "\\ No newline at end of file",
      "@@ -10 +10,2 @@",
      " ten",
      "+eleven",
      "",
    ].join("\n");
    const [f] = parseUnifiedDiff(text, limits);
    expect(f!.oldPath).toBe("src/a b.ts");
    expect(f!.newPath).toBe("src/a b.ts");
    expect(f!.status).toBe("modified");
    expect(f!.oldMode).toBe("100644");
    expect(f!.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines, h.section])).toEqual([
      [1, 3, 1, 3, "function f() {"],
      [10, 1, 10, 2, ""],
    ]);
    expect(f!.hunks[0]!.lines).toEqual([
      { kind: "ctx", text: "one", oldNo: 1, newNo: 1 },
      { kind: "del", text: "two", oldNo: 2 },
      { kind: "add", text: "TWO", newNo: 2 },
      { kind: "ctx", text: "three", oldNo: 3, newNo: 3, noNewline: true },
    ]);
    expect(f!.hunks[1]!.lines.map((l) => [l.oldNo, l.newNo])).toEqual([
      [10, 10],
      [undefined, 11],
    ]);
    expect(f!.lineCount).toBe(6);
    expect(f!.cut).toBe(false);
  });

  test("renames, mode changes, new, deleted and binary files", () => {
    const text = [
      "diff --git a/old name.txt b/new name.txt",
      "similarity index 100%",
      "rename from old name.txt",
      "rename to new name.txt",
      "diff --git a/run.sh b/run.sh",
      "old mode 100644",
      "new mode 100755",
      "diff --git a/added b/added",
      "new file mode 100644",
      "index 0000000..e69de29",
      "diff --git a/gone b/gone",
      "deleted file mode 100644",
      "index 3b18e51..0000000",
      "--- a/gone",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "diff --git a/logo.png b/logo.png",
      "index 1234567..89abcde 100644",
      "Binary files a/logo.png and b/logo.png differ",
      "",
    ].join("\n");
    const files = parseUnifiedDiff(text, limits);
    expect(files.map((f) => [f.status, f.oldPath, f.newPath, f.binary])).toEqual([
      ["renamed", "old name.txt", "new name.txt", false],
      ["modified", "run.sh", "run.sh", false],
      ["added", "added", "added", false],
      ["deleted", "gone", "gone", false],
      ["modified", "logo.png", "logo.png", true],
    ]);
    expect(files[0]!.similarity).toBe(100);
    expect([files[1]!.oldMode, files[1]!.newMode]).toEqual(["100644", "100755"]);
    expect(files[2]!.newMode).toBe("100644");
    expect(files[3]!.hunks[0]!.lines).toEqual([{ kind: "del", text: "bye", oldNo: 1 }]);
  });

  test("quoted paths are unquoted, octal bytes as UTF-8", () => {
    const text = ['diff --git "a/t\\303\\251\\"st" "b/t\\303\\251\\"st"', "new file mode 100644", "--- /dev/null", '+++ "b/t\\303\\251\\"st"', "@@ -0,0 +1 @@", "+x", ""].join("\n");
    const [f] = parseUnifiedDiff(text, limits);
    expect([f!.oldPath, f!.newPath]).toEqual(['té"st', 'té"st']);
    expect(unquotePath('"a\\tb\\\\c"').path).toBe("a\tb\\c");
  });

  test("a file is cut after maxLinesPerFile lines, a line after maxLineChars", () => {
    const body = Array.from({ length: 10 }, (_, i) => `+line ${i}`);
    const text = ["diff --git a/x b/x", "new file mode 100644", "--- /dev/null", "+++ b/x", "@@ -0,0 +1,10 @@", ...body, "diff --git a/y b/y", "--- a/y", "+++ b/y", "@@ -1 +1 @@", `-${"a".repeat(50)}`, "+b", ""].join("\n");
    const [x, y] = parseUnifiedDiff(text, { maxLinesPerFile: 4, maxLineChars: 20 });
    expect(x!.lineCount).toBe(4);
    expect(x!.cut).toBe(true);
    expect(y!.cut).toBe(false);
    expect(y!.hunks[0]!.lines[0]).toEqual({ kind: "del", text: "a".repeat(20), oldNo: 1, cut: true });
  });

  test("text that ended early marks its last file cut", () => {
    const text = ["diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@", " a"].join("\n");
    expect(parseUnifiedDiff(text, limits, false)[0]!.cut).toBe(true);
  });
});
