import { expect, test } from "bun:test";
import { absoluteOn, isFullUrl, isRelativePath, parseLinkType, resolveLinkRelative, urlJoin } from "./markup-links.ts";

test("Gitea's resolveLinkRelative cases", () => {
  expect(resolveLinkRelative("/a", "", "")).toBe("/a");
  expect(resolveLinkRelative("/a", "b", "")).toBe("/a/b");
  expect(resolveLinkRelative("/a", "b", "c")).toBe("/a/b/c");
  expect(resolveLinkRelative("/a", "b", "/c")).toBe("/a/c");
  // A rooted link already under a deep base is kept; under a shallow one it is joined.
  expect(resolveLinkRelative("/owner/repo/foo", "", "/owner/repo/foo/bar/xxx")).toBe("/owner/repo/foo/owner/repo/foo/bar/xxx");
  expect(resolveLinkRelative("/owner/repo/foo/bar", "", "/owner/repo/foo/bar/xxx")).toBe("/owner/repo/foo/bar/xxx");
});

test("joining keeps queries and fragments, climbs with .., escapes what URLs escape, and leaves full URLs", () => {
  expect(resolveLinkRelative("/o/r/src/branch/main", "docs", "../x.md?plain=1#L3")).toBe("/o/r/src/branch/main/x.md?plain=1#L3");
  expect(resolveLinkRelative("/o/r/src/branch/main", "", "./a b.md")).toBe("/o/r/src/branch/main/a%20b.md");
  expect(resolveLinkRelative("/o/r/src/branch/main", "", "https://example.com/x")).toBe("https://example.com/x");
  expect(resolveLinkRelative("/o/r/src/branch/main", "", "//cdn.example/x")).toBe("//cdn.example/x");
  expect(resolveLinkRelative("http://h.test", "", "x.md")).toBe("http://h.test/x.md");
  expect(urlJoin("o/r", "x")).toBe("o/r/x");
});

test("what counts as a full URL, a relative path and a typed link", () => {
  expect(isFullUrl("mailto:a@b")).toBe(true);
  expect(isFullUrl("HTTPS://x")).toBe(true);
  expect(isFullUrl("docs/a.md")).toBe(false);
  expect(["a.md", "./a", "../a"].every(isRelativePath)).toBe(true);
  expect(["", "/a", "#x", "?q", "ssh://h"].some(isRelativePath)).toBe(false);
  expect(parseLinkType("/:media/img/a.png", "default")).toEqual({ type: "media", link: "img/a.png" });
  expect(parseLinkType("/:root/alice", "default")).toEqual({ type: "root", link: "alice" });
  expect(parseLinkType("/other", "media")).toEqual({ type: "media", link: "/other" });
  expect(absoluteOn("https://h", "/a")).toBe("https://h/a");
  expect(absoluteOn("https://h", "//x/a")).toBe("//x/a");
});
