/**
 * `npm install` of a package with 50 dependencies from hearth's npm registry (issue 16), against a
 * floor: a bare Bun server answering the very same package documents and tarballs from memory,
 * captured from hearth after publishing. Both run in the same session; npm's cache is emptied
 * before every install, so every document and tarball is fetched.
 *
 *   bun bench/npm-install.ts [--deps 50] [--runs 5] [--binary PATH] [--no-write] [--keep]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { benchArgs } from "./lib/args.ts";
import { Cleanup, type Child } from "./lib/children.ts";
import { freePort, median } from "./lib/measure.ts";
import { writeResultsSection } from "./lib/results.ts";

const ROOT = resolve(import.meta.dir, "..");
const args = benchArgs(process.argv.slice(2));
args.helpFrom(import.meta.path);
const O = {
  deps: args.integer("deps", 50),
  runs: args.integer("runs", 5),
  binary: args.flag("binary") ? resolve(args.string("binary", "")) : undefined,
  write: !args.flag("no-write"),
  keep: args.flag("keep"),
};
const cleanup = new Cleanup(O.keep);
const tmp = cleanup.dir(mkdtempSync(join(tmpdir(), "hearth-bench-npm-")));

async function run(cmd: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<string> {
  const p = Bun.spawn(cmd, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}\n${out}${err}`);
  return out;
}

// ---- hearth with an owner and a token
const port = freePort();
const work = join(tmp, "hearth");
const config = join(work, "custom", "conf", "app.ini");
mkdirSync(dirname(config), { recursive: true });
writeFileSync(config, `[server]\nHTTP_ADDR = 127.0.0.1\nHTTP_PORT = ${port}\nDOMAIN = 127.0.0.1\n\n[log]\nLEVEL = warn\n`);
const hearth = O.binary ? [O.binary] : [process.execPath, join(ROOT, "src", "main.ts")];
const henv = { HEARTH_WORK_DIR: work };
await run([...hearth, "admin", "user", "create", "--username", "bench", "--password", "benchpass123", "--email", "bench@example.com", "--admin", "--must-change-password=false", "--config", config], { env: henv });
const token = (await run([...hearth, "admin", "user", "generate-access-token", "--username", "bench", "--raw", "--config", config], { env: henv })).trim();
const server: Child = cleanup.track(
  Bun.spawn([...hearth, "web", "--config", config, "--port", String(port)], { cwd: ROOT, env: { ...process.env, ...henv }, stdout: Bun.file(join(tmp, "web.log")), stderr: Bun.file(join(tmp, "web.err")) }),
);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/v1/version`)).status === 200) break;
  } catch {}
  if (server.exitCode !== null || i > 3000) throw new Error("hearth did not start");
  await Bun.sleep(10);
}

/** An npm environment of its own (HOME, user config, cache) naming `registry` for everything. */
function npmEnv(name: string, registry: string): Record<string, string> {
  const home = join(tmp, `home-${name}`);
  mkdirSync(home, { recursive: true });
  const userconfig = join(home, ".npmrc");
  writeFileSync(userconfig, [`registry=${registry}`, `${registry.replace(/^https?:/, "")}:_authToken=${token}`, "audit=false", "fund=false", "update-notifier=false", ""].join("\n"));
  return { HOME: home, npm_config_userconfig: userconfig, npm_config_cache: join(home, "cache") };
}

// ---- publish the dependencies and the package that needs them all
const registry = `${base}/api/packages/bench/npm/`;
const publisher = npmEnv("publish", registry);
const names = Array.from({ length: O.deps }, (_, i) => `dep-${String(i).padStart(2, "0")}`);
console.log(`publishing ${names.length + 1} packages…`);
for (const name of [...names, "app"]) {
  const dir = join(tmp, "src", name);
  mkdirSync(dir, { recursive: true });
  const dependencies = name === "app" ? Object.fromEntries(names.map((n) => [n, "^1.0.0"])) : {};
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", main: "index.js", dependencies }));
  writeFileSync(join(dir, "index.js"), `module.exports = ${JSON.stringify(name)};\n${"// padding\n".repeat(200)}`);
  await run(["npm", "publish"], { cwd: dir, env: publisher });
}

// ---- the floor: the same documents and tarballs, answered from memory by a bare Bun server
const floorPort = freePort();
const floorBase = `http://127.0.0.1:${floorPort}`;
const captured = new Map<string, { body: Uint8Array; type: string }>();
const auth = { Authorization: `token ${token}` };
for (const name of [...names, "app"]) {
  const doc = (await (await fetch(`${registry}${name}`, { headers: auth })).json()) as { versions: Record<string, { dist: { tarball: string } }> };
  for (const v of Object.values(doc.versions)) {
    const tarball = new URL(v.dist.tarball);
    captured.set(tarball.pathname, { body: new Uint8Array(await (await fetch(tarball, { headers: auth })).arrayBuffer()), type: "application/octet-stream" });
    v.dist.tarball = `${floorBase}${tarball.pathname}`;
  }
  captured.set(new URL(`${registry}${name}`).pathname, { body: new TextEncoder().encode(JSON.stringify(doc)), type: "application/json" });
}
const floor = Bun.serve({
  hostname: "127.0.0.1",
  port: floorPort,
  fetch(req) {
    const hit = captured.get(new URL(req.url).pathname);
    return hit ? new Response(hit.body, { headers: { "Content-Type": hit.type } }) : new Response("not found", { status: 404 });
  },
});

/** One `npm install` of `app` into a fresh project with an empty cache; its wall time. */
async function install(label: string, reg: string): Promise<number> {
  const env = npmEnv(label, reg);
  const project = join(tmp, `project-${label}`);
  rmSync(project, { recursive: true, force: true });
  rmSync(env.npm_config_cache!, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true }));
  const t0 = performance.now();
  await run(["npm", "install", "--no-audit", "--no-fund", "app@1.0.0"], { cwd: project, env });
  return performance.now() - t0;
}

const ours: number[] = [];
const theirs: number[] = [];
await install("warm-hearth", registry);
await install("warm-floor", `${floorBase}${new URL(registry).pathname}`);
for (let r = 0; r < O.runs; r++) {
  ours.push(await install(`hearth-${r}`, registry));
  theirs.push(await install(`floor-${r}`, `${floorBase}${new URL(registry).pathname}`));
}
floor.stop(true);

const h = median(ours);
const f = median(theirs);
const section = [
  "<!-- npm-install:begin -->",
  `## npm install from hearth (\`bun bench/npm-install.ts${O.binary ? " --binary dist/hearth" : ""}\`)`,
  "",
  `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: \`npm install\` (npm ${(await run(["npm", "--version"])).trim()}) of a package with ${O.deps} dependencies into a fresh project with an empty cache (${O.deps + 1} documents and ${O.deps + 1} tarballs fetched), median of ${O.runs} runs, on 127.0.0.1; the floor is a bare Bun server answering the same documents and tarballs from memory.`,
  "",
  "| registry | npm install | ratio |",
  "|---|---|---|",
  `| bare Bun floor | ${f.toFixed(0)} ms | 1.00× |`,
  `| hearth | ${h.toFixed(0)} ms | ${(h / f).toFixed(2)}× |`,
  "<!-- npm-install:end -->",
].join("\n");
console.log(section);
if (O.write) writeResultsSection("npm-install", section);

// The server child keeps the event loop alive: leave now (Cleanup stops it on exit).
process.exit(0);
