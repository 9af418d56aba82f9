import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { signedIn, visibleText } from "../support/web.ts";

// The real client: cargo (1.95, ~/.cargo/bin) publishes a crate to a listening hearth through the
// sparse index, a consumer crate resolves and fetches it from hearth only; search, owners, yank
// and unyank go through cargo too. Then the owner's git index repository is made with the settings
// form, and a second consumer reads the same crates through it (git-fetch-with-cli). Everything
// cargo reads comes from a temporary CARGO_HOME naming hearth's registry; nothing else is asked.

/** rustup's cargo in ~/.cargo/bin, else one on PATH (Debian's `cargo`), else CARGO names it. */
const CARGO =
  process.env.CARGO ?? [join(homedir(), ".cargo", "bin", "cargo"), Bun.which("cargo")].find((p): p is string => !!p && existsSync(p)) ?? "cargo";
const t = makeTestApp("", { listen: true });
const dir = mkdtempSync(join(tmpdir(), "hearth-cargo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let env: Record<string, string> = {};
let sparse = "";
let token = "";

async function cargo(cwd: string, args: string[]): Promise<{ code: number; out: string; stdout: string }> {
  const proc = Bun.spawn([CARGO, ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out: stdout + stderr, stdout };
}

async function mustCargo(cwd: string, args: string[]): Promise<string> {
  const r = await cargo(cwd, args);
  if (r.code !== 0) throw new Error(`cargo ${args.join(" ")} failed (${r.code}):\n${r.out.slice(-6000)}`);
  return r.stdout;
}

function crate(name: string, files: Record<string, string>): string {
  const p = join(dir, name);
  mkdirSync(join(p, "src"), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(p, file), text);
  return p;
}

const lib = (name: string, version: string) =>
  crate(`${name}-${version}`, {
    "Cargo.toml": `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\ndescription = "says hello"\nlicense = "MIT"\npublish = ["hearth"]\n\n[lib]\npath = "src/lib.rs"\n`,
    "src/lib.rs": 'pub fn hello() -> &\'static str { "hello from hearth" }\n',
  });

const consumer = (name: string, registry: string) =>
  crate(name, {
    "Cargo.toml": `[package]\nname = "${name}"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\nhello-hearth = { version = "0.1", registry = "${registry}" }\n`,
    "src/main.rs": "fn main() { println!(\"{}\", hello_hearth::hello()); }\n",
  });

describe("cargo against hearth", () => {
  test("setup: a user, a token and a CARGO_HOME naming hearth's registries", async () => {
    const alice = await t.user("alice");
    token = t.token(alice, ["write:package", "write:repository"]);
    sparse = `sparse+${t.baseUrl}api/packages/alice/cargo/`;
    const home = join(dir, "home");
    const cargoHome = join(dir, "cargo-home");
    mkdirSync(home, { recursive: true });
    mkdirSync(cargoHome, { recursive: true });
    writeFileSync(
      join(cargoHome, "config.toml"),
      [
        "[registries.hearth]",
        `index = "${sparse}"`,
        "[registries.hearth-git]",
        `index = "${t.baseUrl}alice/_cargo-index.git"`,
        "[net]",
        "git-fetch-with-cli = true",
        "retry = 0",
        "",
      ].join("\n"),
    );
    writeFileSync(join(cargoHome, "credentials.toml"), `[registries.hearth]\ntoken = "Bearer ${token}"\n[registries.hearth-git]\ntoken = "Bearer ${token}"\n`);
    const passthrough = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^(CARGO|RUSTUP_TOOLCHAIN|GIT_)/.test(k))) as Record<string, string>;
    env = {
      ...passthrough,
      HOME: home,
      CARGO_HOME: cargoHome,
      RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(homedir(), ".rustup"),
      CARGO_TERM_COLOR: "never",
      CARGO_HTTP_TIMEOUT: "30",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
    };
    expect(await mustCargo(home, ["--version"])).toContain("cargo 1.");
  }, 60_000);

  test("publish through the sparse index; a consumer resolves and fetches from hearth", async () => {
    await mustCargo(lib("hello-hearth", "0.1.0"), ["publish", "--registry", "hearth", "--no-verify", "--allow-dirty"]);
    await mustCargo(lib("hello-hearth", "0.1.1"), ["publish", "--registry", "hearth", "--no-verify", "--allow-dirty"]);
    const again = await cargo(lib("hello-hearth", "0.1.0"), ["publish", "--registry", "hearth", "--no-verify", "--allow-dirty"]);
    expect(again.code).not.toBe(0);
    expect(again.out).toContain("already exists");

    const app = consumer("app", "hearth");
    await mustCargo(app, ["generate-lockfile"]);
    const lock = readFileSync(join(app, "Cargo.lock"), "utf8");
    expect(lock).toContain('name = "hello-hearth"\nversion = "0.1.1"');
    expect(lock).toContain(`source = "registry+${sparse}"`.replace("registry+sparse+", "sparse+"));
    await mustCargo(app, ["fetch"]);
    const cached = join(dir, "cargo-home", "registry", "cache");
    expect(existsSync(cached)).toBe(true);

    const found = await mustCargo(app, ["search", "--registry", "hearth", "hello"]);
    expect(found).toContain('hello-hearth = "0.1.1"');
    const owners = await cargo(app, ["owner", "--list", "hello-hearth", "--registry", "hearth"]);
    expect(owners.out).toContain("alice");
  }, 180_000);

  test("yank takes a version out of new resolutions, unyank brings it back", async () => {
    const app = consumer("app-yank", "hearth");
    await mustCargo(app, ["yank", "hello-hearth@0.1.1", "--registry", "hearth"]);
    await mustCargo(app, ["generate-lockfile"]);
    expect(readFileSync(join(app, "Cargo.lock"), "utf8")).toContain('name = "hello-hearth"\nversion = "0.1.0"');
    await mustCargo(app, ["yank", "--undo", "hello-hearth@0.1.1", "--registry", "hearth"]);
    await mustCargo(app, ["generate-lockfile"]);
    expect(readFileSync(join(app, "Cargo.lock"), "utf8")).toContain('name = "hello-hearth"\nversion = "0.1.1"');
  }, 180_000);

  test("the git index: initialized and rebuilt by the settings forms, updated by publish and yank, read by cargo", async () => {
    const web = await signedIn(t, "alice");
    const init = await web.post("/user/settings/packages/cargo/initialize", {});
    expect(init.status).toBe(303);
    expect(visibleText(await web.page("/user/settings"))).toContain("The Cargo index was successfully created.");
    const rebuild = await web.post("/user/settings/packages/cargo/rebuild", {});
    expect(rebuild.status).toBe(303);
    expect(visibleText(await web.page("/user/settings"))).toContain("The Cargo index was successfully rebuild.");

    // It is a repository of alice's like any other, with config.json and the crate's index file.
    const cfg = await t.json("GET", "/api/v1/repos/alice/_cargo-index/raw/config.json", { token });
    expect(cfg.body).toEqual({ dl: `${t.baseUrl}api/packages/alice/cargo/api/v1/crates`, api: `${t.baseUrl}api/packages/alice/cargo`, "auth-required": false });
    const file = await t.request("GET", "/api/v1/repos/alice/_cargo-index/raw/he/ll/hello-hearth", { token });
    expect((await file.text()).trim().split("\n").map((l) => JSON.parse(l).vers)).toEqual(["0.1.0", "0.1.1"]);

    // Publishing and yanking commit "Update {name}".
    await mustCargo(lib("hello-hearth", "0.1.2"), ["publish", "--registry", "hearth", "--no-verify", "--allow-dirty"]);
    await mustCargo(consumer("app-y2", "hearth"), ["yank", "hello-hearth@0.1.2", "--registry", "hearth"]);
    const commits = await t.json("GET", "/api/v1/repos/alice/_cargo-index/commits?limit=10", { token });
    expect(commits.body.map((c: any) => c.commit.message.trim())).toEqual(["Update hello-hearth", "Update hello-hearth", "Rebuild Cargo Index", "Initialize Cargo Config"]);

    // A consumer through the git index (cargo clones it with the git command line).
    const app = consumer("app-git", "hearth-git");
    await mustCargo(app, ["generate-lockfile"]);
    const lock = readFileSync(join(app, "Cargo.lock"), "utf8");
    expect(lock).toContain('name = "hello-hearth"\nversion = "0.1.1"');
    expect(lock).toContain(`source = "registry+${t.baseUrl}alice/_cargo-index.git"`);
    await mustCargo(app, ["fetch"]);
  }, 180_000);
});
