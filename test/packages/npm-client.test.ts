import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getPackage } from "../../src/models/package.ts";
import { makeTestApp } from "../support/app.ts";

// The real client: npm (11 on the image) publishes a package and a scoped one that depends on it
// to a listening hearth, installs them into a fresh project, reads them back (view, search),
// moves dist-tags and unpublishes. Everything npm reads comes from a temporary HOME and user
// config naming hearth as the registry for everything and for the scope, so nothing is asked of
// the public registry (there is no network here) and the real ~/.npmrc is never read or written.

const t = makeTestApp("", { listen: true });
const dir = mkdtempSync(join(tmpdir(), "hearth-npm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let registry = "";
let repoId = 0;
let env: Record<string, string> = {};

/** Runs npm with the temporary configuration; stdout and stderr together. */
async function npm(cwd: string, args: string[]): Promise<{ code: number; out: string; stdout: string }> {
  const proc = Bun.spawn(["npm", ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out: stdout + stderr, stdout };
}

async function mustNpm(cwd: string, args: string[]): Promise<string> {
  const r = await npm(cwd, args);
  if (r.code !== 0) throw new Error(`npm ${args.join(" ")} failed (${r.code}):\n${r.out.slice(-6000)}`);
  return r.stdout;
}

function project(name: string, files: Record<string, string>): string {
  const p = join(dir, name.replace("/", "__"));
  mkdirSync(p, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(p, file), text);
  return p;
}

describe("npm against hearth", () => {
  test("setup: a user, a token and an npm configuration naming hearth only", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    repoId = (await t.ok("POST", "/api/v1/user/repos", t.token(alice), { name: "tools" }, 201)).id;
    registry = `${t.baseUrl}api/packages/alice/npm/`;
    const nerf = registry.replace(/^https?:/, "");
    const home = join(dir, "home");
    mkdirSync(home, { recursive: true });
    const userconfig = join(home, ".npmrc");
    writeFileSync(
      userconfig,
      [`registry=${registry}`, `@scope:registry=${registry}`, `${nerf}:_authToken=${token}`, "audit=false", "fund=false", "update-notifier=false", ""].join("\n"),
    );
    const passthrough = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^npm_/i.test(k))) as Record<string, string>;
    env = {
      ...passthrough,
      HOME: home,
      npm_config_userconfig: userconfig,
      npm_config_globalconfig: join(home, "global-npmrc"),
      npm_config_cache: join(dir, "cache"),
      npm_config_registry: registry,
      npm_config_loglevel: "warn",
      NO_UPDATE_NOTIFIER: "1",
    };
    expect((await mustNpm(home, ["whoami"])).trim()).toBe("alice");
  }, 60_000);

  test("publish a package and a scoped one depending on it, install both into a fresh project", async () => {
    const hello = project("hello-hearth", {
      "package.json": JSON.stringify({ name: "hello-hearth", version: "1.0.0", description: "says hello", main: "index.js", bin: { "hello-hearth": "cli.js" }, keywords: ["greeting"], license: "MIT", repository: { type: "git", url: `${t.baseUrl}alice/tools.git` } }),
      "index.js": 'module.exports = () => "hello from hearth";\n',
      "cli.js": '#!/usr/bin/env node\nconsole.log(require("./index.js")());\n',
    });
    await mustNpm(hello, ["publish"]);
    // npm writes the manifest's repository as git+http://…; the package is linked to that repository.
    expect(getPackage(t.env.db, (await t.json("GET", "/api/v1/users/alice")).body.id, "npm", "hello-hearth")!.repoId).toBe(repoId);
    const greeter = project("@scope/greeter", {
      "package.json": JSON.stringify({ name: "@scope/greeter", version: "2.0.0", main: "index.js", dependencies: { "hello-hearth": "^1.0.0" } }),
      "index.js": 'module.exports = () => require("hello-hearth")() + "!";\n',
    });
    await mustNpm(greeter, ["publish"]);

    const app = project("app", { "package.json": JSON.stringify({ name: "app", version: "0.0.0", private: true }) });
    await mustNpm(app, ["install", "@scope/greeter"]);
    const run = Bun.spawnSync(["node", "-e", 'process.stdout.write(require("@scope/greeter")())'], { cwd: app });
    expect(run.stdout.toString()).toBe("hello from hearth!");
    expect(existsSync(join(app, "node_modules/.bin/hello-hearth"))).toBe(true);
    const lock = JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8"));
    expect(lock.packages["node_modules/@scope/greeter"].resolved).toStartWith(registry);
    expect(lock.packages["node_modules/hello-hearth"].resolved).toStartWith(registry);
    expect(lock.packages["node_modules/hello-hearth"].integrity).toStartWith("sha512-");

    // A second version of the same number is refused.
    const again = await npm(hello, ["publish"]);
    expect(again.code).not.toBe(0);
    expect(again.out).toContain("cannot publish over the previously published versions: 1.0.0");
  }, 120_000);

  test("npm view and npm search read the package document and the search", async () => {
    const view = JSON.parse(await mustNpm(dir, ["view", "hello-hearth", "--json"]));
    expect(view.name).toBe("hello-hearth");
    expect(view.version).toBe("1.0.0");
    expect(view.description).toBe("says hello");
    expect(view["dist-tags"]).toEqual({ latest: "1.0.0" });
    expect(view.bin).toEqual({ "hello-hearth": "cli.js" });
    const scoped = JSON.parse(await mustNpm(dir, ["view", "@scope/greeter@2.0.0", "dependencies", "--json"]));
    expect(scoped).toEqual({ "hello-hearth": "^1.0.0" });
    const found = JSON.parse(await mustNpm(dir, ["search", "hello", "--json"]));
    expect(found.map((p: { name: string }) => p.name)).toEqual(["hello-hearth"]);
  }, 60_000);

  test("dist-tags: add, list, remove", async () => {
    await mustNpm(dir, ["dist-tag", "add", "hello-hearth@1.0.0", "stable"]);
    await mustNpm(dir, ["dist-tag", "add", "@scope/greeter@2.0.0", "next"]);
    expect((await mustNpm(dir, ["dist-tag", "ls", "hello-hearth"])).trim().split("\n").sort()).toEqual(["latest: 1.0.0", "stable: 1.0.0"]);
    expect((await mustNpm(dir, ["dist-tag", "ls", "@scope/greeter"])).trim().split("\n").sort()).toEqual(["latest: 2.0.0", "next: 2.0.0"]);
    await mustNpm(dir, ["dist-tag", "rm", "hello-hearth", "stable"]);
    expect((await mustNpm(dir, ["dist-tag", "ls", "hello-hearth"])).trim()).toBe("latest: 1.0.0");
  }, 60_000);

  test("unpublish one version, then a whole scoped package", async () => {
    const hello = join(dir, "hello-hearth");
    const pkg = JSON.parse(readFileSync(join(hello, "package.json"), "utf8"));
    writeFileSync(join(hello, "package.json"), JSON.stringify({ ...pkg, version: "1.1.0" }));
    await mustNpm(hello, ["publish"]);
    expect(JSON.parse(await mustNpm(dir, ["view", "hello-hearth", "versions", "--json"]))).toEqual(["1.0.0", "1.1.0"]);
    await mustNpm(dir, ["unpublish", "hello-hearth@1.0.0"]);
    expect(JSON.parse(await mustNpm(dir, ["view", "hello-hearth", "versions", "--json"]))).toEqual(["1.1.0"]);

    await mustNpm(dir, ["unpublish", "@scope/greeter", "--force"]);
    const gone = await npm(dir, ["view", "@scope/greeter", "--json"]);
    expect(gone.code).not.toBe(0);
    expect(gone.out).toContain("404");
  }, 60_000);
});
