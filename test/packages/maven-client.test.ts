import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";

// The real client: Maven 3.8 (on the image) deploys a release and a SNAPSHOT to a listening hearth,
// and consumer builds resolve them back (by version, by SNAPSHOT, by a version range, which reads
// the generated maven-metadata.xml). There is no network: the plugins come from the image's
// ~/.m2, pinned to the versions held there. Each build gets its own local repository mirroring
// ~/.m2 with symlinked files, so plugins resolve while everything Maven writes (the test's
// `hearth.*` artifacts above all) stays in the temporary one.

const M2 = process.env.HEARTH_TEST_M2_REPOSITORY ?? join(homedir(), ".m2", "repository");
const GROUP_DIR = "hearth";

/** Plugin versions the image's ~/.m2 holds (PACKAGES-NOTES): every plugin a jar build runs, pinned. */
const PLUGINS: Record<string, string> = {
  "maven-resources-plugin": "3.3.1",
  "maven-compiler-plugin": "3.13.0",
  "maven-surefire-plugin": "3.2.5",
  "maven-jar-plugin": "3.4.1",
  "maven-install-plugin": "3.1.2",
  "maven-deploy-plugin": "3.1.2",
};

function pluginManagement(): string {
  return Object.entries(PLUGINS)
    .map(([a, v]) => `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${a}</artifactId><version>${v}</version></plugin>`)
    .join("\n");
}

/**
 * A local repository that sees everything ~/.m2 holds and writes nothing back: its directories are
 * real, its files symlinks, so whatever Maven adds (resolver bookkeeping, `.lastUpdated` markers,
 * the artifacts it fetches) lands in `dir`.
 */
/** Every path under `dir` (the guard that ~/.m2 is left as it was). */
function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

function overlayRepository(dir: string, from = M2): string {
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (from === M2 && entry.name === GROUP_DIR) continue;
    if (entry.isDirectory()) overlayRepository(join(dir, entry.name), join(from, entry.name));
    else symlinkSync(join(from, entry.name), join(dir, entry.name));
  }
  return dir;
}

async function mvn(cwd: string, settings: string, repo: string, args: string[]): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(["mvn", "-B", "-nsu", "-s", settings, `-Dmaven.repo.local=${repo}`, ...args], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, MAVEN_OPTS: "-Xmx512m" },
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out: out + err };
}

async function mustBuild(cwd: string, settings: string, repo: string, args: string[]): Promise<string> {
  const r = await mvn(cwd, settings, repo, args);
  if (r.code !== 0) throw new Error(`mvn ${args.join(" ")} failed (${r.code}):\n${r.out.slice(-6000)}`);
  return r.out;
}

function libraryProject(dir: string, version: string, repoUrl: string, loud: boolean): void {
  mkdirSync(join(dir, "src/main/java/hearth/it"), { recursive: true });
  writeFileSync(
    join(dir, "pom.xml"),
    `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>hearth.it</groupId>
  <artifactId>greeter</artifactId>
  <version>${version}</version>
  <name>Greeter</name>
  <description>Says hello from hearth</description>
  <url>https://example.com/greeter</url>
  <licenses><license><name>MIT</name></license></licenses>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <distributionManagement>
    <repository><id>hearth</id><url>${repoUrl}</url></repository>
    <snapshotRepository><id>hearth</id><url>${repoUrl}</url></snapshotRepository>
  </distributionManagement>
  <build><pluginManagement><plugins>
${pluginManagement()}
  </plugins></pluginManagement></build>
</project>
`,
  );
  writeFileSync(
    join(dir, "src/main/java/hearth/it/Greeter.java"),
    `package hearth.it;

public final class Greeter {
  public static String greet(String name) { return "Hello, " + name; }
${loud ? '  public static String greetLoudly(String name) { return greet(name).toUpperCase() + "!"; }\n' : ""}}
`,
  );
}

function consumerProject(dir: string, version: string, repoUrl: string, call: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "src/main/java/hearth/use"), { recursive: true });
  writeFileSync(
    join(dir, "pom.xml"),
    `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>hearth.use</groupId>
  <artifactId>consumer</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <repositories>
    <repository>
      <id>hearth</id><url>${repoUrl}</url>
      <releases><enabled>true</enabled></releases>
      <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots>
    </repository>
  </repositories>
  <dependencies>
    <dependency><groupId>hearth.it</groupId><artifactId>greeter</artifactId><version>${version}</version></dependency>
  </dependencies>
  <build><pluginManagement><plugins>
${pluginManagement()}
  </plugins></pluginManagement></build>
</project>
`,
  );
  writeFileSync(
    join(dir, "src/main/java/hearth/use/App.java"),
    `package hearth.use;

public class App {
  public static void main(String[] args) { System.out.println(hearth.it.Greeter.${call}("hearth")); }
}
`,
  );
}

/** settings.xml: the server's credentials, and every other repository mirrored to hearth so nothing reaches for the network. */
function settingsXml(path: string, repoUrl: string, user: string, password: string): void {
  writeFileSync(
    path,
    `<settings>
  <servers><server><id>hearth</id><username>${user}</username><password>${password}</password></server></servers>
  <mirrors><mirror><id>hearth</id><mirrorOf>*</mirrorOf><url>${repoUrl}</url></mirror></mirrors>
</settings>
`,
  );
}

describe("mvn against hearth", () => {
  const t = makeTestApp("", { listen: true });

  test("deploys a release and a SNAPSHOT; consumers resolve both, and a range through the generated metadata", async () => {
    expect(existsSync(join(M2, "org/apache/maven/plugins/maven-deploy-plugin/3.1.2"))).toBe(true);
    expect(existsSync(join(M2, GROUP_DIR))).toBe(false);
    const m2Before = listTree(M2);
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    const repoUrl = `${t.baseUrl}api/packages/alice/maven`;
    const work = mkdtempSync(join(tmpdir(), "hearth-mvn-"));
    try {
      const settings = join(work, "settings.xml");
      settingsXml(settings, repoUrl, "alice", token);

      // Deploy 1.0.0, then 1.1.0-SNAPSHOT twice (two timestamped builds).
      const lib = join(work, "lib");
      const deployRepo = overlayRepository(join(work, "deploy-repo"));
      libraryProject(lib, "1.0.0", repoUrl, false);
      await mustBuild(lib, settings, deployRepo, ["deploy", "-Dmaven.test.skip=true", "-Dmaven.install.skip=true"]);
      libraryProject(lib, "1.1.0-SNAPSHOT", repoUrl, true);
      await mustBuild(lib, settings, deployRepo, ["deploy", "-Dmaven.test.skip=true", "-Dmaven.install.skip=true"]);
      await mustBuild(lib, settings, deployRepo, ["deploy", "-Dmaven.test.skip=true", "-Dmaven.install.skip=true"]);
      // A second deploy of the same release is refused (409), and mvn says so.
      libraryProject(lib, "1.0.0", repoUrl, false);
      const again = await mvn(lib, settings, deployRepo, ["deploy", "-Dmaven.test.skip=true", "-Dmaven.install.skip=true"]);
      expect(again.code).not.toBe(0);
      expect(again.out).toContain("409");

      // What hearth holds.
      const root = "/api/packages/alice/maven/hearth/it/greeter";
      const meta = await (await t.request("GET", `${root}/maven-metadata.xml`)).text();
      expect(meta).toContain("<release>1.0.0</release><latest>1.1.0-SNAPSHOT</latest><versions><version>1.0.0</version><version>1.1.0-SNAPSHOT</version></versions>");
      const jar = await t.request("GET", `${root}/1.0.0/greeter-1.0.0.jar`);
      expect(jar.status).toBe(200);
      expect(jar.headers.get("content-type")).toBe("application/java-archive");
      const jarBytes = new Uint8Array(await jar.arrayBuffer());
      expect(await (await t.request("GET", `${root}/1.0.0/greeter-1.0.0.jar.sha1`)).text()).toBe(new Bun.CryptoHasher("sha1").update(jarBytes).digest("hex"));
      const snapMeta = await (await t.request("GET", `${root}/1.1.0-SNAPSHOT/maven-metadata.xml`)).text();
      expect(snapMeta).toContain("<buildNumber>2</buildNumber>");
      // The deployed artifacts never reached the deploy build's local repository (install skipped), nor ~/.m2.
      expect(existsSync(join(M2, GROUP_DIR))).toBe(false);

      // Consumers, each with a local repository that has never seen hearth.it.
      const app = join(work, "app");
      consumerProject(app, "1.0.0", repoUrl, "greet");
      const repo1 = overlayRepository(join(work, "consumer-repo-1"));
      await mustBuild(app, settings, repo1, ["compile"]);
      expect(existsSync(join(repo1, "hearth/it/greeter/1.0.0/greeter-1.0.0.jar"))).toBe(true);
      expect(readFileSync(join(repo1, "hearth/it/greeter/1.0.0/greeter-1.0.0.jar"))).toEqual(Buffer.from(jarBytes));

      consumerProject(app, "1.1.0-SNAPSHOT", repoUrl, "greetLoudly");
      const repo2 = overlayRepository(join(work, "consumer-repo-2"));
      await mustBuild(app, settings, repo2, ["compile"]);
      const snapFiles = readdirSync(join(repo2, "hearth/it/greeter/1.1.0-SNAPSHOT"));
      expect(snapFiles.some((f) => /^greeter-1\.1\.0-\d{8}\.\d{6}-2\.jar$/.test(f))).toBe(true);

      // A range is resolved from the artifact's maven-metadata.xml.
      consumerProject(app, "[1.0.0,1.0.9]", repoUrl, "greet");
      const repo3 = overlayRepository(join(work, "consumer-repo-3"));
      await mustBuild(app, settings, repo3, ["compile"]);
      expect(existsSync(join(repo3, "hearth/it/greeter/1.0.0/greeter-1.0.0.jar"))).toBe(true);

      // Without credentials for a private owner, resolution fails.
      const root2 = await t.user("root", { admin: true });
      await t.ok("PATCH", "/api/v1/admin/users/alice", t.token(root2), { login_name: "alice", source_id: 0, visibility: "private" });
      const anonymous = join(work, "anonymous.xml");
      settingsXml(anonymous, repoUrl, "nobody-here", "wrong");
      writeFileSync(anonymous, readFileSync(anonymous, "utf8").replace(/<servers>.*<\/servers>/s, ""));
      consumerProject(app, "1.0.0", repoUrl, "greet");
      const repo4 = overlayRepository(join(work, "consumer-repo-4"));
      const refused = await mvn(app, anonymous, repo4, ["compile"]);
      expect(refused.code).not.toBe(0);
      expect(refused.out).toContain("401");
      expect(listTree(M2)).toEqual(m2Before);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
