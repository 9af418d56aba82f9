import { describe, expect, test } from "bun:test";
import { definitionFor, globMatch, parseEditorConfig } from "./editorconfig.ts";

describe("EditorConfig", () => {
  test("glob rules", () => {
    expect(globMatch("/**/*.go", "/a/b.go")).toBe(true);
    expect(globMatch("/*.go", "/a/b.go")).toBe(false);
    expect(globMatch("/a/**/b", "/a/b")).toBe(true);
    expect(globMatch("/a/**/b", "/a/x/y/b")).toBe(true);
    expect(globMatch("/**/?.c", "/x/ab.c")).toBe(false);
    expect(globMatch("/**/[ab].c", "/b.c")).toBe(true);
    expect(globMatch("/**/[!ab].c", "/b.c")).toBe(false);
    expect(globMatch("/**/[a-c]x", "/bx")).toBe(true);
    expect(globMatch("/**/{a,b{c,d}}.js", "/bd.js")).toBe(true);
    expect(globMatch("/**/{a,b{c,d}}.js", "/b.js")).toBe(false);
    expect(globMatch("/**/{single}.js", "/{single}.js")).toBe(true);
    expect(globMatch("/**/f{-2..10}", "/f-1")).toBe(true);
    expect(globMatch("/**/f{-2..10}", "/f11")).toBe(false);
    expect(globMatch("/**/f{-2..10}", "/f01")).toBe(false);
    expect(globMatch("/**/a\\*b", "/a*b")).toBe(true);
    expect(globMatch("/**/a\\*b", "/axb")).toBe(false);
    expect(globMatch("/**/[a/b]", "/[a/b]")).toBe(true);
    expect(globMatch("/**/{a,b", "/{a,b")).toBe(true);
    // A hostile pattern costs bounded work, not exponential backtracking (which would never finish).
    expect(globMatch(`/${"*".repeat(200)}x`, `/${"a".repeat(2000)}`)).toBe(false);
    expect(globMatch(`/${"{a,b}".repeat(30)}`, "/ab")).toBe(false);
    expect(globMatch(`/${"**".repeat(300)}x`, `/${"a/".repeat(1000)}`)).toBe(false);
  });

  test("parsing: duplicate sections merge, keys are case-insensitive, bad lines are skipped", () => {
    const sections = parseEditorConfig("[*]\nINDENT_SIZE=3\n[*]\nend_of_line: CRLF\n[broken\nnot a pair\n=x\n[*.py]\nindent_size = 4 # four\n");
    expect(sections.map((s) => s.selector)).toEqual(["*", "*.py"]);
    expect(definitionFor(sections, "a.txt")).toEqual({ indent_size: "3", end_of_line: "crlf" });
    expect(definitionFor(sections, "a.py")).toEqual({ indent_size: "4", end_of_line: "crlf" });
    expect(definitionFor(parseEditorConfig(""), "a")).toEqual({});
  });
});
