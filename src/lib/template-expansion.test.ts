import { describe, expect, test } from "bun:test";
import {
  expandVariables,
  isExcluded,
  isExpanded,
  parseTemplateRules,
  sanitizeExpandedPath,
  templateVariables,
  TRANSFORMERS,
} from "./template-expansion.ts";

describe("parseTemplateRules", () => {
  test("comments, sections, globs", () => {
    const rules = parseTemplateRules("# Header\n\n**.go\ntext/*.txt\n[exclude]\nsecret/**\n[bogus]\n**/modules/*\n[expand]\nREADME.md\n");
    expect(rules).toEqual({ expand: ["**.go", "text/*.txt", "README.md"], exclude: ["secret/**", "**/modules/*"] });
  });

  test("matching as Gitea's test: ** crosses directories, * does not", () => {
    const rules = parseTemplateRules("**.go\ntext/*.txt\n**/modules/*\n");
    const cases: [string, boolean][] = [
      ["main.go", true],
      ["sub/sub/foo.go", true],
      ["a.txt", false],
      ["text/a.txt", true],
      ["sub/text/a.txt", false],
      ["text/a.json", false],
      ["a/b/c/modules/README.md", true],
      ["a/b/c/modules/d/README.md", false],
    ];
    for (const [path, want] of cases) expect([path, isExpanded(rules, path)]).toEqual([path, want]);
  });

  test("an excluded directory excludes everything in it", () => {
    const rules = parseTemplateRules("[exclude]\nsecret\n");
    expect(isExcluded(rules, "secret/a/b.txt")).toBe(true);
    expect(isExcluded(rules, "secret")).toBe(true);
    expect(isExcluded(rules, "secrets/a")).toBe(false);
  });

  test("a glob that does not compile is skipped", () => {
    expect(parseTemplateRules("[abc\nok\n").expand).toEqual(["ok"]);
  });
});

describe("transformers", () => {
  test("Gitea's TestTransformers", () => {
    const got = Object.fromEntries(TRANSFORMERS.map(([name, fn]) => [name, fn("Abc_Def-XYZ")]));
    expect(got).toEqual({
      SNAKE: "abc_def_xyz",
      KEBAB: "abc-def-xyz",
      CAMEL: "abcDefXyz",
      PASCAL: "AbcDefXyz",
      LOWER: "abc_def-xyz",
      UPPER: "ABC_DEF-XYZ",
      TITLE: "Abc_def-Xyz",
    });
  });

  test("case changes split words", () => {
    const pascal = TRANSFORMERS.find(([n]) => n === "SNAKE")![1];
    expect(pascal("myCoolRepo")).toBe("my_cool_repo");
    expect(pascal("HTTPServer")).toBe("http_server");
  });
});

describe("expandVariables", () => {
  const facts = (name: string, owner: string) => ({
    name,
    owner,
    description: `${name} desc`,
    link: `https://h.test/${owner}/${name}`,
    httpsUrl: `https://h.test/${owner}/${name}.git`,
    sshUrl: `git@h.test:${owner}/${name}.git`,
  });
  const vars = templateVariables(facts("my-repo", "alice"), facts("tmpl", "bob"), new Date(2026, 0, 5));

  test("both syntaxes, transformers, dates", () => {
    expect(expandVariables("$REPO_NAME by ${REPO_OWNER} from ${TEMPLATE_OWNER}/$TEMPLATE_NAME", vars)).toBe("my-repo by alice from bob/tmpl");
    expect(expandVariables("${REPO_NAME_PASCAL} ${REPO_NAME_SNAKE} ${REPO_OWNER_UPPER}", vars)).toBe("MyRepo my_repo ALICE");
    expect(expandVariables("$YEAR-$MONTH-$DAY $MONTH_ENGLISH_UPPER", vars)).toBe("2026-01-05 JANUARY");
    expect(expandVariables("$REPO_HTTPS_URL $TEMPLATE_LINK $REPO_DESCRIPTION", vars)).toBe("https://h.test/alice/my-repo.git https://h.test/bob/tmpl my-repo desc");
  });

  test("Go's os.Expand edge cases with Gitea's mapping", () => {
    expect(expandVariables("cost: $HOME", vars)).toBe("cost: HOME");
    expect(expandVariables("end $", vars)).toBe("end $");
    expect(expandVariables("a $ b", vars)).toBe("a $ b");
    expect(expandVariables("x${}y", vars)).toBe("xy");
    expect(expandVariables("x${REPO_NAME", vars)).toBe("xREPO_NAME");
    expect(expandVariables("$$", vars)).toBe("$");
    expect(expandVariables("no variables", vars)).toBe("no variables");
  });
});

describe("sanitizeExpandedPath", () => {
  test("Gitea's TestFilePathSanitize", () => {
    expect(sanitizeExpandedPath("//a/")).toBe("a");
    expect(sanitizeExpandedPath("\\a")).toBe("_a");
    expect(sanitizeExpandedPath(".. /a/ ..")).toBe("__/a/__");
    expect(sanitizeExpandedPath("./../a/.git/ b: ")).toBe("__/a/_git/b_");
    expect(sanitizeExpandedPath("CoN")).toBe("_");
    expect(sanitizeExpandedPath("LpT1")).toBe("_");
    expect(sanitizeExpandedPath("test_CON")).toBe("test_CON");
    expect(sanitizeExpandedPath("test CON ")).toBe("test CON");
    expect(sanitizeExpandedPath("\u0000")).toBe("_");
    expect(sanitizeExpandedPath("")).toBe(".");
    expect(sanitizeExpandedPath("/")).toBe(".");
    expect(sanitizeExpandedPath("subst-/../.gIt/name")).toBe("subst-/__/_gIt/name");
  });
});
