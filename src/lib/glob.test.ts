import { describe, expect, test } from "bun:test";
import { compileGlob, globMatches, hasGlobSyntax } from "./glob.ts";

describe("Gitea's globs", () => {
  test("a name with glob syntax is a pattern, any other a plain name", () => {
    expect(["release/*", "v?", "[ab]", "{a,b}", "a\\b"].map(hasGlobSyntax)).toEqual([true, true, true, true, true]);
    expect(["main", "release/1.0", "feature-x"].map(hasGlobSyntax)).toEqual([false, false, false]);
  });

  test("`*` stops at the separators, `**` does not; the whole name must match", () => {
    expect(globMatches("release/*", "release/1.0", ["/"])).toBe(true);
    expect(globMatches("release/*", "release/1.0/hotfix", ["/"])).toBe(false);
    expect(globMatches("release/**", "release/1.0/hotfix", ["/"])).toBe(true);
    expect(globMatches("rel", "release", ["/"])).toBe(false);
    expect(globMatches("ci/*", "ci/a/b")).toBe(true);
  });

  test("classes, alternatives and escapes", () => {
    expect(globMatches("v[0-9]", "v7")).toBe(true);
    expect(globMatches("v[!0-9]", "v7")).toBe(false);
    expect(globMatches("{main,dev{,el}}", "devel")).toBe(true);
    expect(globMatches("a\\*", "a*")).toBe(true);
    expect(globMatches("a\\*", "ab")).toBe(false);
    expect(globMatches("?.md", "a.md")).toBe(true);
  });

  test("a malformed pattern is refused when compiled", () => {
    expect(() => compileGlob("[abc")).toThrow();
    expect(() => compileGlob("a\\")).toThrow();
  });
});
