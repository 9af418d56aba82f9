import { expect, test } from "bun:test";
import { compareChefVersions, isCookbookMetadataPath, parseChefMetadata } from "./chef-metadata.ts";
import { BadRequest } from "./errors.ts";

test("parseChefMetadata: Gitea's fields, the maintainer as author, only http(s) source URLs, string dependencies", () => {
  expect(
    parseChefMetadata(
      JSON.stringify({
        name: "test",
        version: "1.0.1",
        description: "d",
        long_description: "ld",
        maintainer: "m",
        license: "MIT",
        source_url: "https://example.com/x",
        dependencies: { apt: ">= 1.0", bad: 3 },
        recipes: {},
      }),
    ),
  ).toEqual({
    name: "test",
    version: "1.0.1",
    metadata: { description: "d", long_description: "ld", author: "m", license: "MIT", repository_url: "https://example.com/x", dependencies: { apt: ">= 1.0" } },
  });
  expect(parseChefMetadata('{"name":"a","version":"1.2","source_url":"javascript:alert(1)"}')).toEqual({ name: "a", version: "1.2", metadata: {} });
});

test("parseChefMetadata refuses what Gitea refuses, as 400s", () => {
  const msg = (text: string) => {
    try {
      parseChefMetadata(text);
      return "accepted";
    } catch (err) {
      expect(err).toBeInstanceOf(BadRequest);
      return (err as Error).message;
    }
  };
  expect(msg('{"name":"a b","version":"1.0"}')).toBe("package name is invalid");
  expect(msg('{"version":"1.0"}')).toBe("package name is invalid");
  expect(msg('{"name":"a","version":"1"}')).toBe("package version is invalid");
  expect(msg('{"name":"a","version":"1.0.0.0"}')).toBe("package version is invalid");
  expect(msg('{"name":"a","version":"1.0.0-rc"}')).toBe("package version is invalid");
  expect(msg("[]")).toBe("invalid metadata.json");
  expect(msg("{")).toStartWith("invalid metadata.json");
});

test("isCookbookMetadataPath: metadata.json one directory down", () => {
  expect(isCookbookMetadataPath("test/metadata.json")).toBe(true);
  expect(isCookbookMetadataPath("metadata.json")).toBe(false);
  expect(isCookbookMetadataPath("test/recipes/metadata.json")).toBe(false);
  expect(isCookbookMetadataPath("test/metadata.json.bak")).toBe(false);
});

test("compareChefVersions orders numerically", () => {
  expect(["1.0.10", "1.0.2", "0.9", "1.0"].sort(compareChefVersions)).toEqual(["0.9", "1.0", "1.0.2", "1.0.10"]);
  expect(compareChefVersions("1.0", "1.0.0")).toBe(0);
});
