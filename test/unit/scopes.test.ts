import { describe, expect, test } from "bun:test";
import { ScopeSet, allScopeStrings, levelForMethod } from "../../src/services/access/scopes.ts";

describe("token scopes", () => {
  test("write implies read and duplicates collapse", () => {
    expect(ScopeSet.parse(["read:user", "write:user", "read:user"]).toString()).toBe("write:user");
    expect(ScopeSet.parse("write:issue").has("issue", "read")).toBe(true);
    expect(ScopeSet.parse("read:issue").has("issue", "write")).toBe(false);
  });

  test("normalized order is Gitea's category order, not the request's", () => {
    expect(ScopeSet.parse("read:user,write:repository,read:admin").toString()).toBe(
      "read:admin,write:repository,read:user",
    );
  });

  test("every write folds into all; public-only stays a flag in front", () => {
    const everyWrite = allScopeStrings().filter((s) => s.startsWith("write:"));
    expect(ScopeSet.parse(everyWrite).toString()).toBe("all");
    expect(ScopeSet.parse(["all", "public-only"]).toString()).toBe("public-only,all");
    expect(ScopeSet.parse("public-only").has("user", "read")).toBe(false);
    expect(ScopeSet.parse("public-only").publicOnly).toBe(true);
  });

  test("all grants every category at every level", () => {
    const all = ScopeSet.parse("all");
    for (const s of allScopeStrings().filter((x) => x.includes(":"))) {
      const [level, cat] = s.split(":") as ["read" | "write", never];
      expect(all.has(cat, level)).toBe(true);
    }
  });

  test("unknown scopes and untrimmed items are rejected", () => {
    expect(() => ScopeSet.parse("read:users")).toThrow("invalid access token scope: read:users");
    expect(() => ScopeSet.parse(" read:user")).toThrow();
    expect(() => ScopeSet.parse("admin")).toThrow();
  });

  test("empty items are skipped and an empty set says so", () => {
    expect(ScopeSet.parse(",,").isEmpty()).toBe(true);
    expect(ScopeSet.parse(",read:user,").toList()).toEqual(["read:user"]);
  });

  test("level follows the HTTP method", () => {
    expect(levelForMethod("GET")).toBe("read");
    expect(levelForMethod("HEAD")).toBe("read");
    for (const m of ["POST", "PUT", "PATCH", "DELETE"]) expect(levelForMethod(m)).toBe("write");
  });
});
