import { describe, expect, test } from "bun:test";
import { canonicalName, displayName, homepageOf, isHttpUrl, isValidProjectName, isValidVersion, normalizeLabel } from "./pypi.ts";

describe("PyPI names and versions", () => {
  test("PEP 503 normalisation: runs of - _ . become one -, lower case for the key", () => {
    expect(canonicalName("Friendly-Bard")).toBe("friendly-bard");
    expect(canonicalName("FRIENDLY_BARD")).toBe("friendly-bard");
    expect(canonicalName("friendly.bard")).toBe("friendly-bard");
    expect(canonicalName("Friendly-._.-Bard")).toBe("friendly-bard");
    expect(displayName("Test_Package.Name")).toBe("Test-Package-Name");
  });

  test("names as PEP 508 and Gitea allow them", () => {
    for (const ok of ["a", "A1", "test-package", "test_package", "x.y.z", "a--b"]) expect(isValidProjectName(ok)).toBe(true);
    for (const bad of ["", "-a", "a-", ".a", "a b", "ä", "a/b", "a\n"]) expect(isValidProjectName(bad)).toBe(false);
  });

  test("versions as PEP 440's appendix B (and Gitea) match them", () => {
    for (const ok of ["1", "1.0.1", "v1.0", "1!2.0", "1.0a1", "1.0-rc.2", "1.0.post1", "1.0-1", "1.0.dev3", "1.0+local.7", "2.0b", "1.0rev"])
      expect(isValidVersion(ok)).toBe(true);
    for (const bad of ["", "1.0 ", "a1", "1.0+", "1..0", "1.0-beta.x", "1.0\n", "1.0+UPPER"]) expect(isValidVersion(bad)).toBe(false);
  });

  test("the home page: a Homepage project URL first, then home_page, only http(s)", () => {
    expect(normalizeLabel("Home-Page ")).toBe("homepage");
    expect(normalizeLabel("HOME_page!")).toBe("homepage");
    expect(homepageOf(["Source, https://src.example", "Home page, https://home.example "], "https://old.example")).toBe("https://home.example");
    expect(homepageOf(["Source, https://src.example", "no comma"], "https://old.example")).toBe("https://old.example");
    expect(homepageOf(["Homepage, javascript:alert(1)"], "")).toBe("");
    expect(homepageOf([], "ftp://x.example")).toBe("");
    expect(isHttpUrl("http://h.example/p?q")).toBe(true);
    expect(isHttpUrl("not a url")).toBe(false);
  });
});
