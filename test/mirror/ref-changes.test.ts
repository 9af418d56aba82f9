import { describe, expect, test } from "bun:test";
import { refChanges } from "../../src/services/mirror/pull-sync.ts";

const a = "a".repeat(40);
const b = "b".repeat(40);
const c = "c".repeat(40);
const zero = "0".repeat(40);
const ref = (name: string, sha: string) => ({ name, sha, type: "commit" });

describe("refChanges (a sync's ref updates, as a push reports them)", () => {
  test("moved, made and gone refs; unchanged ones are left out", () => {
    const before = [ref("refs/heads/main", a), ref("refs/heads/old", b), ref("refs/tags/v1", c)];
    const after = [ref("refs/heads/main", b), ref("refs/heads/new", c), ref("refs/tags/v1", c)];
    expect(refChanges(before, after)).toEqual([
      { ref: "refs/heads/main", old: a, new: b },
      { ref: "refs/heads/new", old: zero, new: c },
      { ref: "refs/heads/old", old: b, new: zero },
    ]);
  });

  test("nothing moved, nothing to process", () => {
    const refs = [ref("refs/heads/main", a)];
    expect(refChanges(refs, refs)).toEqual([]);
  });

  test("a SHA-256 repository's zero id is as long as its ids", () => {
    const long = "d".repeat(64);
    expect(refChanges([], [ref("refs/heads/main", long)])).toEqual([{ ref: "refs/heads/main", old: "0".repeat(64), new: long }]);
  });
});
