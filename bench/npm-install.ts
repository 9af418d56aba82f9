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
import { join, resolve } from "node:path";
import { benchArgs } from "./lib/args.ts";
import { Cleanup } from "./lib/children.ts";
import { run, startHearth } from "./lib/hearth-server.ts";
import { freePort, median } from "./lib/measure.ts";
import { writeResultsSection } from "./lib/results.ts";

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


// ---- hearth with an owner and a token
const { base, token } = await startHearth(tmp, cleanup, O.binary);

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
