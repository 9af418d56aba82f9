import { expect, test } from "bun:test";
import { compareVersions, looksLikeVersion, parseSemver } from "./npm-version.ts";

test("NewSemver: one to three numeric parts, normalised as go-version prints them", () => {
  expect(parseSemver("1.0.1-pre")?.text).toBe("1.0.1-pre");
  expect(parseSemver("v1.2")?.text).toBe("1.2.0");
  expect(parseSemver("01.002.3+build.5")?.text).toBe("1.2.3+build.5");
  expect(parseSemver("1.2.3-rc.1+meta")).toMatchObject({ prerelease: "rc.1", metadata: "meta" });
  for (const bad of ["", "one", "1.2.3.4", "1.2.3-", "1..2", " 1.2.3", "1.2.3 "]) expect(parseSemver(bad)).toBeUndefined();
});

test("versions sort by parts, a pre-release below its release, numeric identifiers below words", () => {
  const sorted = ["1.0.0", "1.0.0-rc.1", "0.9.10", "0.9.9", "1.0.0-alpha", "1.0.0-alpha.2", "1.0.0-alpha.10", "1.0.0-1", "10.0.0"]
    .map((v) => parseSemver(v)!)
    .sort(compareVersions)
    .map((v) => v.text);
  expect(sorted).toEqual(["0.9.9", "0.9.10", "1.0.0-1", "1.0.0-alpha", "1.0.0-alpha.2", "1.0.0-alpha.10", "1.0.0-rc.1", "1.0.0", "10.0.0"]);
  expect(compareVersions(parseSemver("1.0.0+a")!, parseSemver("1.0.0+b")!)).toBe(0);
});

test("a dist-tag may not read as a version (go-version's NewVersion)", () => {
  for (const v of ["1", "1.0", "v1.0", "1.0.0.0", "1.0beta", "2.0-rc1"]) expect(looksLikeVersion(v)).toBe(true);
  for (const tag of ["latest", "beta", "next-1", "release", "v", ""]) expect(looksLikeVersion(tag)).toBe(false);
});
