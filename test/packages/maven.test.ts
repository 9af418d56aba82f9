import { describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { requireUser } from "../../src/services/user/lookup.ts";
import * as pkgModel from "../../src/models/package.ts";

const P = "/api/packages";

type Auth = { token?: string; basic?: [string, string] };

function put(t: TestApp, path: string, body: string | Uint8Array, auth: Auth = {}) {
  return t.request("PUT", `${P}${path}`, { ...auth, body, headers: { "Content-Type": "application/octet-stream" } });
}

function hex(alg: "md5" | "sha1" | "sha256" | "sha512", data: string | Uint8Array): string {
  return new Bun.CryptoHasher(alg).update(data).digest("hex");
}

function versionRows(t: TestApp, owner: string, name: string) {
  const pkg = pkgModel.getPackage(t.env.db, requireUser(t.env, owner).id, "maven", name);
  return pkg ? pkgModel.listVersions(t.env.db, pkg.id).rows : [];
}

const pom = (version: string, extra = "") => `<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.gitea</groupId>
  <artifactId>test-project</artifactId>
  <version>${version}</version>
  <name>Test &amp; Project</name>
  <description>Test Description</description>
  <url>https://gitea.io</url>
  <licenses><license><name>MIT</name></license></licenses>
  <dependencies>
    <dependency><groupId>org.gitea.core</groupId><artifactId>git</artifactId><version>5.0.0</version><scope>test</scope></dependency>
  </dependencies>${extra}
</project>`;

describe("maven registry", () => {
  const t = makeTestApp();
  const root = "/alice/maven/com/gitea/test-project";
  const jar = "test-project-1.0.1.jar";

  test("Gitea's upload, download, HEAD, checksum and metadata walk", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    expect((await put(t, `${root}/1.0.1/${jar}`, "test", { token })).status).toBe(201);
    const dup = await put(t, `${root}/1.0.1/${jar}`, "test", { token });
    expect(dup.status).toBe(409);
    expect(await dup.text()).toBe("package file already exists");
    // The artifact's maven-metadata.xml is generated: an upload of it is answered and ignored.
    expect((await put(t, `${root}/maven-metadata.xml`, "test", { token })).status).toBe(200);
    expect((await put(t, `${root}/maven-metadata.xml.sha1`, "whatever", { token })).status).toBe(200);
    const versions = versionRows(t, "alice", "com.gitea:test-project");
    expect(versions.map((v) => [v.version, v.metadataJson])).toEqual([["1.0.1", ""]]);

    // HEAD: GET's headers, no body, no download counted.
    const head = await t.request("HEAD", `${P}${root}/1.0.1/${jar}`, { token });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/java-archive");
    expect(head.headers.get("content-length")).toBe("4");
    expect(head.headers.get("last-modified")).toBeTruthy();
    expect(await head.text()).toBe("");
    const get = await t.request("GET", `${P}${root}/1.0.1/${jar}`, { token });
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toBe("application/java-archive");
    expect(get.headers.get("content-length")).toBe("4");
    expect(get.headers.get("last-modified")).toBe(head.headers.get("last-modified"));
    expect(await get.text()).toBe("test");
    // Only the lead file (the pom) counts downloads.
    expect(versionRows(t, "alice", "com.gitea:test-project")[0]!.downloadCount).toBe(0);

    // Checksum uploads are compared, never stored.
    const mismatch = await put(t, `${root}/1.0.1/${jar}.sha1`, "test", { token });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toBe("hash mismatch");
    expect((await put(t, `${root}/1.0.1/${jar}.sha1`, hex("sha1", "test"), { token })).status).toBe(200);
    expect((await put(t, `${root}/1.0.1/${jar}.md5`, hex("md5", "test"), { token })).status).toBe(200);
    expect((await put(t, `${root}/1.0.1/${jar}.sha512`, hex("sha1", "test"), { token })).status).toBe(400);
    expect((await put(t, `${root}/1.0.1/other.jar.sha1`, hex("sha1", "test"), { token })).status).toBe(404);
    const noVersion = await put(t, `${root}/9.9.9/${jar}.sha1`, hex("sha1", "test"), { token });
    expect(noVersion.status).toBe(404);
    expect(await noVersion.text()).toBe("package does not exist");
    expect((await put(t, `${root}/1.0.1/${jar}.sha1`, "x".repeat(5000), { token })).status).toBe(400);

    // The pom: lead file, its metadata the version's (also for a version made by the jar).
    const pomText = pom("1.0.1");
    expect((await put(t, `${root}/1.0.1/${jar}.pom`, pomText, { token })).status).toBe(201);
    const [v] = versionRows(t, "alice", "com.gitea:test-project");
    expect(JSON.parse(v!.metadataJson)).toEqual({
      group_id: "com.gitea",
      artifact_id: "test-project",
      name: "Test & Project",
      description: "Test Description",
      project_url: "https://gitea.io",
      licenses: ["MIT"],
      dependencies: [{ group_id: "org.gitea.core", artifact_id: "git", version: "5.0.0" }],
    });
    const files = pkgModel.listFiles(t.env.db, v!.id).map((f) => [f.file.name, f.file.isLead]);
    expect(files).toEqual([
      [jar, false],
      [`${jar}.pom`, true],
    ]);
    const headPom = await t.request("HEAD", `${P}${root}/1.0.1/${jar}.pom`, { token });
    expect(headPom.headers.get("content-type")).toBe("text/xml");
    expect(headPom.headers.get("content-length")).toBe(String(Buffer.byteLength(pomText)));
    expect(versionRows(t, "alice", "com.gitea:test-project")[0]!.downloadCount).toBe(0);
    const getPom = await t.request("GET", `${P}${root}/1.0.1/${jar}.pom`, { token });
    expect(await getPom.text()).toBe(pomText);
    expect(versionRows(t, "alice", "com.gitea:test-project")[0]!.downloadCount).toBe(1);

    // Checksums served from the blob's digests, any case of the extension.
    expect((await t.request("GET", `${P}${root}/1.2.3/${jar}`, { token })).status).toBe(404);
    for (const alg of ["md5", "sha1", "sha256", "sha512"] as const) {
      const res = await t.request("GET", `${P}${root}/1.0.1/${jar}.${alg}`, { token });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(hex(alg, "test"));
    }
    expect(await (await t.request("GET", `${P}${root}/1.0.1/${jar}.SHA1`, { token })).text()).toBe(hex("sha1", "test"));
    const missing = await t.request("GET", `${P}${root}/1.0.1/nothing.jar`, { token });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("package file does not exist");

    // The generated metadata, exactly Gitea's bytes and digests.
    const meta = await t.request("GET", `${P}${root}/maven-metadata.xml`, { token });
    const expected =
      '<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>com.gitea</groupId><artifactId>test-project</artifactId><versioning><release>1.0.1</release><latest>1.0.1</latest><versions><version>1.0.1</version></versions></versioning></metadata>';
    expect(meta.status).toBe(200);
    expect(meta.headers.get("content-type")).toBe("text/xml");
    expect(meta.headers.get("content-length")).toBe(String(expected.length));
    expect(meta.headers.get("last-modified")).toBeTruthy();
    expect(await meta.text()).toBe(expected);
    const metaSums: Record<string, string> = {
      md5: "6bee0cebaaa686d658adf3e7e16371a0",
      sha1: "8696abce499fe84d9ea93e5492abe7147e195b6c",
      sha256: "3f48322f81c4b2c3bb8649ae1e5c9801476162b520e1c2734ac06b2c06143208",
      sha512: "cb075aa2e2ef1a83cdc14dd1e08c505b72d633399b39e73a21f00f0deecb39a3e2c79f157c1163f8a3854828750706e0dec3a0f5e4778e91f8ec2cf351a855f2",
    };
    for (const [alg, sum] of Object.entries(metaSums)) {
      expect(await (await t.request("GET", `${P}${root}/maven-metadata.xml.${alg}`, { token })).text()).toBe(sum);
    }
    const headMeta = await t.request("HEAD", `${P}${root}/maven-metadata.xml`, { token });
    expect(headMeta.status).toBe(200);
    expect(headMeta.headers.get("content-length")).toBe(String(expected.length));
    expect(await headMeta.text()).toBe("");
    expect((await t.request("GET", `${P}/alice/maven/com/gitea/unknown/maven-metadata.xml`, { token })).status).toBe(404);
  });

  test("versions in upload order; release is the last non-SNAPSHOT; SNAPSHOT metadata is stored and replaced", async () => {
    const bob = await t.user("bob");
    const token = t.token(bob, ["write:package"]);
    const base = "/bob/maven/org/example/lib";
    for (const v of ["2.0.0", "1.5.0", "2.1.0-SNAPSHOT"]) {
      expect((await put(t, `${base}/${v}/lib-${v}.jar`, `jar ${v}`, { token })).status).toBe(201);
      // Same-second uploads are still ordered by creation.
    }
    const snap = "2.1.0-SNAPSHOT";
    const snapJar = "lib-2.1.0-20240102.030405-1.jar";
    expect((await put(t, `${base}/${snap}/${snapJar}`, "snapshot build 1", { token })).status).toBe(201);
    const snapMeta1 = `<?xml version="1.0" encoding="UTF-8"?><metadata><versioning><snapshot><timestamp>20240102.030405</timestamp><buildNumber>1</buildNumber></snapshot></versioning></metadata>`;
    const snapMeta2 = snapMeta1.replaceAll(">1<", ">2<");
    expect((await put(t, `${base}/${snap}/maven-metadata.xml`, snapMeta1, { token })).status).toBe(201);
    expect((await put(t, `${base}/${snap}/maven-metadata.xml.sha1`, hex("sha1", snapMeta1), { token })).status).toBe(200);
    expect((await put(t, `${base}/${snap}/maven-metadata.xml`, snapMeta2, { token })).status).toBe(201);
    expect((await put(t, `${base}/${snap}/maven-metadata.xml.sha1`, hex("sha1", snapMeta1), { token })).status).toBe(400);
    const served = await t.request("GET", `${P}${base}/${snap}/maven-metadata.xml`, { token });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("text/xml");
    expect(await served.text()).toBe(snapMeta2);
    expect(await (await t.request("GET", `${P}${base}/${snap}/maven-metadata.xml.sha256`, { token })).text()).toBe(hex("sha256", snapMeta2));
    expect(await (await t.request("GET", `${P}${base}/${snap}/${snapJar}`, { token })).text()).toBe("snapshot build 1");

    const meta = await (await t.request("GET", `${P}${base}/maven-metadata.xml`)).text();
    expect(meta).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>org.example</groupId><artifactId>lib</artifactId><versioning><release>1.5.0</release><latest>2.1.0-SNAPSHOT</latest><versions><version>2.0.0</version><version>1.5.0</version><version>2.1.0-SNAPSHOT</version></versions></versioning></metadata>',
    );
    // Only SNAPSHOTs: no <release>.
    await put(t, "/bob/maven/org/example/snaponly/0.1-SNAPSHOT/snaponly-0.1-SNAPSHOT.jar", "x", { token });
    expect(await (await t.request("GET", `${P}/bob/maven/org/example/snaponly/maven-metadata.xml`)).text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>org.example</groupId><artifactId>snaponly</artifactId><versioning><latest>0.1-SNAPSHOT</latest><versions><version>0.1-SNAPSHOT</version></versions></versioning></metadata>',
    );
  });

  test("invalid poms and paths are 400s, nothing stored", async () => {
    const carol = await t.user("carol");
    const token = t.token(carol, ["write:package"]);
    const base = "/carol/maven/com/gitea/test-project/1.0";
    for (const bad of ["", "not xml", "<project><artifactId>x</artifactId>", "<notproject/>", "<project><groupId>g</groupId></project>", "<project><artifactId>a</artifactId></project><extra/>", "<project><artifactId>&nbsp;</artifactId></project>"]) {
      const res = await put(t, `${base}/test-project-1.0.pom`, bad, { token });
      expect(res.status).toBe(400);
    }
    expect(versionRows(t, "carol", "com.gitea:test-project")).toEqual([]);
    // The groupId comes from <parent> when the project has none; a declared ISO-8859-1 encoding is read.
    const latin = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><project><parent><groupId>com.gitea</groupId><artifactId>p</artifactId><version>1</version></parent><artifactId>test-project</artifactId><name>Caf\xe9</name></project>',
      "latin1",
    );
    expect((await put(t, `${base}/test-project-1.0.pom`, latin, { token })).status).toBe(201);
    expect(JSON.parse(versionRows(t, "carol", "com.gitea:test-project")[0]!.metadataJson)).toEqual({ group_id: "com.gitea", artifact_id: "test-project", name: "Café" });
    // Paths that name nothing.
    expect((await put(t, "/carol/maven/onlyartifact/1.0/x.jar", "x", { token })).status).toBe(400);
    expect((await put(t, "/carol/maven/x.jar", "x", { token })).status).toBe(400);
    const bad = await put(t, "/carol/maven/com/gitea/a/1.0%3A0/a.jar", "x", { token });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("request parameters are invalid");
    expect((await t.request("GET", `${P}/carol/maven/com/gitea/a%22b/1.0/a.jar`)).status).toBe(400);
  });

  test("credentials: anonymous writes challenged, read-only token refused, a private owner hidden", async () => {
    const dave = await t.user("dave");
    const anon = await put(t, "/dave/maven/com/d/lib/1/lib-1.jar", "x");
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe('Basic realm="Gitea Package API"');
    expect((await put(t, "/dave/maven/com/d/lib/1/lib-1.jar", "x", { token: t.token(dave, ["read:package"]) })).status).toBe(403);
    expect((await put(t, "/dave/maven/com/d/lib/1/lib-1.jar", "x", { basic: ["dave", "password123"] })).status).toBe(201);
    await t.user("erin");
    expect((await put(t, "/dave/maven/com/d/lib/1/lib-1.pom", pom("1"), { basic: ["erin", "password123"] })).status).toBe(403);
    expect((await t.request("GET", `${P}/dave/maven/com/d/lib/1/lib-1.jar`)).status).toBe(200);

    const root = await t.user("root", { admin: true });
    await t.ok("PATCH", "/api/v1/admin/users/dave", t.token(root), { login_name: "dave", source_id: 0, visibility: "private" });
    expect((await t.request("GET", `${P}/dave/maven/com/d/lib/1/lib-1.jar`)).status).toBe(401);
    expect((await t.request("GET", `${P}/dave/maven/com/d/lib/maven-metadata.xml`)).status).toBe(401);
    expect((await t.request("GET", `${P}/dave/maven/com/d/lib/1/lib-1.jar`, { basic: ["erin", "password123"] })).status).toBe(403);
    expect((await t.request("GET", `${P}/dave/maven/com/d/lib/1/lib-1.jar`, { token: t.token(dave, ["read:package"]) })).status).toBe(200);
  });

  test("a big jar streams through; LIMIT_SIZE_MAVEN refuses more", async () => {
    const small = makeTestApp("[packages]\nLIMIT_SIZE_MAVEN = 1 KiB\n");
    const u = await small.user("frank");
    const token = small.token(u, ["write:package"]);
    const big = await put(small, "/frank/maven/com/f/big/1/big-1.jar", new Uint8Array(4096), { token });
    expect(big.status).toBe(403);
    expect((await put(small, "/frank/maven/com/f/big/1/big-1.jar", new Uint8Array(1000), { token })).status).toBe(201);
    const res = await small.request("GET", `${P}/frank/maven/com/f/big/1/big-1.jar`);
    expect((await res.arrayBuffer()).byteLength).toBe(1000);
  });
});
