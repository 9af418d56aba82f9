import { describe, expect, test } from "bun:test";
import { compilePattern, compilePatterns, matchesFilters, PatternError, skipByIgnores, skipByIncludes } from "./pattern.ts";

// act's pkg/workflowpattern TestMatchPattern table: [patterns, inputs, skip (include list), filter (ignore list)].
const cases: [string[], string[], boolean, boolean][] = [
  [["*"], ["path/with/slash"], true, false],
  [["path/a", "path/b", "path/c"], ["meta", "path/b", "otherfile"], false, false],
  [["path/a", "path/b", "path/c"], ["path/b"], false, true],
  [["path/a", "path/b", "path/c"], ["path/c", "path/b"], false, true],
  [["path/a", "path/b", "path/c"], ["path/c", "path/b", "path/a"], false, true],
  [["path/a", "path/b", "path/c"], ["path/c", "path/b", "path/d", "path/a"], false, false],
  [[], [], false, false],
  [["\\!file"], ["!file"], false, true],
  [["escape\\\\backslash"], ["escape\\backslash"], false, true],
  [[".yml"], ["fyml"], true, false],
  [["feature/*"], ["feature/my-branch"], false, true],
  [["feature/**"], ["feature/beta-a/my-branch"], false, true],
  [["feature/**"], ["feature/mona/the/octocat"], false, true],
  [["main", "releases/mona-the-octocat"], ["main"], false, true],
  [["main", "releases/mona-the-octocat"], ["releases/mona-the-octocat"], false, true],
  [["*"], ["main"], false, true],
  [["**"], ["all/the/branches"], false, true],
  [["*feature"], ["mona-feature"], false, true],
  [["*feature"], ["feature"], false, true],
  [["v2*"], ["v2"], false, true],
  [["v2*"], ["v2.9"], false, true],
  [["v[12].[0-9]+.[0-9]+"], ["v1.10.1"], false, true],
  [["v[12].[0-9]+.[0-9]+"], ["v2.0.0"], false, true],
  [["*.jsx?"], ["page.js"], false, true],
  [["*.jsx?"], ["page.jsx"], false, true],
  [["**.js"], ["src/js/app.js"], false, true],
  [["docs/*"], ["docs/README.md"], false, true],
  [["docs/**/*.md"], ["docs/README.md"], false, true],
  [["docs/**/*.md"], ["docs/a/markdown/file.md"], false, true],
  [["**/docs/**"], ["docs/hello.md"], false, true],
  [["**/docs/**"], ["space/docs/plan/space.doc"], false, true],
  [["**/README.md"], ["README.md"], false, true],
  [["**/*src/**"], ["my-src/code/js/app.js"], false, true],
  [["**/migrate-*.sql"], ["db/sept/migrate-v1.sql"], false, true],
  [["*.md", "!README.md"], ["hello.md"], false, true],
  [["*.md", "!README.md"], ["README.md"], true, true],
  [["*.md", "!README.md"], ["docs/hello.md"], true, true],
  [["*.md", "!README.md", "README*"], ["README.md"], false, true],
  [["*.md", "!README.md", "README*"], ["README.doc"], false, true],
];

describe("workflow patterns (act's table)", () => {
  for (const [patterns, inputs, skip, filter] of cases) {
    test(`${patterns.join(",")} vs ${inputs.join(",")}`, () => {
      const compiled = compilePatterns(patterns);
      expect(skipByIncludes(compiled, inputs)).toBe(skip);
      expect(skipByIgnores(compiled, inputs)).toBe(filter);
    });
  }
});

describe("compilePattern", () => {
  test("a leading ! negates and is not part of the pattern", () => {
    const p = compilePattern("!docs/**");
    expect(p.negative).toBe(true);
    expect(p.pattern).toBe("docs/**");
    expect(p.regex.test("docs/a/b")).toBe(true);
  });
  test("regex metacharacters in the pattern are literal", () => {
    expect(compilePattern("a.b").regex.test("axb")).toBe(false);
    expect(compilePattern("a(b)").regex.test("a(b)")).toBe(true);
    expect(compilePattern("release-1").regex.test("release-1")).toBe(true);
  });
  test("+ and ? at the start are literal", () => {
    expect(compilePattern("+x").regex.test("+x")).toBe(true);
    expect(compilePattern("?x").regex.test("?x")).toBe(true);
  });
  test.each(["[]", "[a", "[!]", "[a-]", "x\\"])("refuses %p", (raw) => {
    expect(() => compilePattern(raw)).toThrow(PatternError);
  });
});

test("matchesFilters: later patterns override earlier ones", () => {
  expect(matchesFilters(["releases/**", "!releases/**-alpha"], "releases/1.0")).toBe(true);
  expect(matchesFilters(["releases/**", "!releases/**-alpha"], "releases/1.0-alpha")).toBe(false);
  expect(matchesFilters(["!main", "*"], "main")).toBe(true);
  expect(matchesFilters([], "main")).toBe(true);
});
