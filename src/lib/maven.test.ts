import { describe, expect, test } from "bun:test";
import { artifactMetadataXml, checksumOf, InvalidPom, mavenContentType, mavenPackageName, parseMavenPath, parsePom } from "./maven.ts";

describe("parseMavenPath (Gitea's extractPathParameters)", () => {
  test.each([
    ["com/gitea/test-project/1.0.1/test-project-1.0.1.jar", { groupId: "com.gitea", artifactId: "test-project", version: "1.0.1", filename: "test-project-1.0.1.jar", isMeta: false }],
    ["com/gitea/test-project/maven-metadata.xml", { groupId: "com.gitea", artifactId: "test-project", version: "", filename: "maven-metadata.xml", isMeta: true }],
    ["com/gitea/test-project/maven-metadata.xml.sha512", { groupId: "com.gitea", artifactId: "test-project", version: "", filename: "maven-metadata.xml.sha512", isMeta: true }],
    ["com/gitea/test-project/1.0-SNAPSHOT/maven-metadata.xml", { groupId: "com.gitea", artifactId: "test-project", version: "1.0-SNAPSHOT", filename: "maven-metadata.xml", isMeta: true }],
    // A release version's maven-metadata.xml names the artifact level of artifact "1.0", as in Gitea.
    ["com/gitea/test-project/1.0/maven-metadata.xml", { groupId: "com.gitea.test-project", artifactId: "1.0", version: "", filename: "maven-metadata.xml", isMeta: true }],
    ["a/b/1/a%20b.jar", { groupId: "a", artifactId: "b", version: "1", filename: "a b.jar", isMeta: false }],
  ])("%s", (rest, expected) => {
    expect(parseMavenPath(rest)).toEqual(expected);
  });

  test.each(["x.jar", "b/1/x.jar", "g/a/1/", "g/a/1:0/x.jar", "g/a%3Cb/1/x.jar", "g/a/1/%E0%A4%A.jar", "g/maven-metadata.xml"])("%s names nothing", (rest) => {
    expect(parseMavenPath(rest)).toBeUndefined();
  });

  test("package name", () => {
    expect(mavenPackageName({ groupId: "com.gitea", artifactId: "x" })).toBe("com.gitea:x");
  });
});

test("checksum files and content types", () => {
  expect(checksumOf("a.jar.sha1", false)).toEqual({ kind: "sha1", of: "a.jar" });
  expect(checksumOf("a.jar.SHA1", false)).toBeUndefined();
  expect(checksumOf("a.jar.SHA1", true)).toEqual({ kind: "sha1", of: "a.jar" });
  expect(checksumOf("a.jar", true)).toBeUndefined();
  expect(checksumOf("sha256", true)).toBeUndefined();
  expect(mavenContentType("a.JAR")).toBe("application/java-archive");
  expect(mavenContentType("a.pom")).toBe("text/xml");
  expect(mavenContentType("maven-metadata.xml")).toBe("text/xml");
  expect(mavenContentType("a.module")).toBeUndefined();
  expect(mavenContentType("noext")).toBeUndefined();
});

describe("parsePom (Gitea's ParsePackageMetaData)", () => {
  const pom = `<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <groupId>org.gitea</groupId>
  <artifactId>my-project</artifactId>
  <version>1.0.1</version>
  <name>My Gitea Project</name>
  <description>Package Description</description>
  <url>https://gitea.io</url>
  <licenses><license><name>MIT</name></license><license><url>https://x</url></license></licenses>
  <dependencies>
    <dependency><groupId>org.gitea.core</groupId><artifactId>git</artifactId><version>5.0.0</version></dependency>
    <dependency><groupId>org.gitea.core</groupId><artifactId>managed</artifactId></dependency>
  </dependencies>
  <build><plugins><plugin><groupId>not.a.dependency</groupId></plugin></plugins></build>
</project>`;

  test("the metadata Gitea keeps", () => {
    expect(parsePom(Buffer.from(pom))).toEqual({
      group_id: "org.gitea",
      artifact_id: "my-project",
      name: "My Gitea Project",
      description: "Package Description",
      project_url: "https://gitea.io",
      licenses: ["MIT"],
      dependencies: [
        { group_id: "org.gitea.core", artifact_id: "git", version: "5.0.0" },
        { group_id: "org.gitea.core", artifact_id: "managed" },
      ],
    });
  });

  test("a URL that is not http(s) is dropped; groupId inherited from the parent", () => {
    const m = parsePom(Buffer.from("<project><parent><groupId>com.mycompany.app</groupId></parent><artifactId>submodule1</artifactId><url>javascript:alert(1)</url></project>"));
    expect(m).toEqual({ group_id: "com.mycompany.app", artifact_id: "submodule1" });
  });

  test.each(["", "<project>", "<other><artifactId>a</artifactId></other>", "<project><artifactId></artifactId></project>", "<project><artifactId>a</artifactId></project>trailing"])("%j is invalid", (doc) => {
    expect(() => parsePom(Buffer.from(doc))).toThrow(InvalidPom);
  });
});

test("artifactMetadataXml", () => {
  expect(artifactMetadataXml("com.gitea", "test-project", ["1.0.1"])).toBe(
    '<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>com.gitea</groupId><artifactId>test-project</artifactId><versioning><release>1.0.1</release><latest>1.0.1</latest><versions><version>1.0.1</version></versions></versioning></metadata>',
  );
  expect(artifactMetadataXml("g", "a", ["2", "1", "3-SNAPSHOT"])).toContain("<release>1</release><latest>3-SNAPSHOT</latest>");
  expect(artifactMetadataXml("g", "a&b", ["1-SNAPSHOT"])).toContain("<artifactId>a&amp;b</artifactId><versioning><latest>1-SNAPSHOT</latest>");
});
