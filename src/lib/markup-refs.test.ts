import { expect, test } from "bun:test";
import { mergeSpans, scanCommitCrossRefs, scanCommitIds, scanMentions, shortSha } from "./markup-refs.ts";

const found = (text: string, spans: { start: number; end: number }[]) => spans.map((s) => text.slice(s.start, s.end));

test("mentions stand alone: after a space or bracket, before a space, bracket, quote or closing punctuation", () => {
  const text = "@alice, (@bob) hi@carol @dave.smith. @x-y_z! @org/team mail@host.example @e'";
  expect(scanMentions(text).map((m) => m.name)).toEqual(["alice", "bob", "dave.smith", "x-y_z", "e"]);
  expect(found(text, scanMentions(text))).toEqual(["@alice", "@bob", "@dave.smith", "@x-y_z", "@e"]);
  expect(scanMentions("no mentions here")).toEqual([]);
});

test("commit ids are 7 to 64 lowercase hex digits standing alone", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const text = `${sha} (abcdef0) deadbee. abcdef x1234567 ABCDEF0 1234567a: 12345678z`;
  expect(scanCommitIds(text).map((c) => c.sha)).toEqual([sha, "abcdef0", "deadbee", "1234567a"]);
  expect(shortSha(sha)).toBe("0123456789");
  expect(shortSha("abcdef0")).toBe("abcdef0");
});

test("owner/repo@sha names a commit of another repository", () => {
  const text = "see go-gitea/gitea@d8a994ef and a/b@xyz1234 [c/d@1234567]";
  const spans = scanCommitCrossRefs(text);
  expect(found(text, spans)).toEqual(["go-gitea/gitea@d8a994ef", "c/d@1234567"]);
  expect(spans[0]).toMatchObject({ owner: "go-gitea", repo: "gitea", sha: "d8a994ef" });
});

test("merged spans keep the earlier kind where two overlap", () => {
  const a = [{ start: 0, end: 5, k: "a" }];
  const b = [{ start: 3, end: 8, k: "b" }, { start: 9, end: 12, k: "b" }];
  expect(mergeSpans(b, a).map((s) => s.k)).toEqual(["b", "b"]);
  expect(mergeSpans(a, b).map((s) => s.k)).toEqual(["a", "b"]);
});
