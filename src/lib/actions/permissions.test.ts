import { describe, expect, test } from "bun:test";
import { jobPermissions, parsePermissions } from "./permissions.ts";

describe("permissions", () => {
  test("read-all, write-all, and anything else as a scalar", () => {
    expect(parsePermissions("read-all")?.issues).toBe("read");
    expect(parsePermissions("write-all")?.code).toBe("write");
    expect(Object.values(parsePermissions("nonsense")!)).toEqual(Array(8).fill("none"));
  });

  test("a mapping names scopes; contents covers code and releases unless they are named", () => {
    const p = parsePermissions({ contents: "read", issues: "write", releases: "write", "pull-requests": "read" })!;
    expect(p).toEqual({ code: "read", releases: "write", issues: "write", pulls: "read", packages: "none", actions: "none", wiki: "none", projects: "none" });
  });

  test("absent or empty states nothing; the job's own win over the workflow's", () => {
    expect(parsePermissions(undefined)).toBeUndefined();
    expect(parsePermissions("")).toBeUndefined();
    expect(jobPermissions("read-all", undefined)?.code).toBe("read");
    expect(jobPermissions("read-all", { contents: "write" })?.code).toBe("write");
    expect(jobPermissions(undefined, undefined)).toBeUndefined();
  });
});
