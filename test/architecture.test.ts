import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";
import { apiOperations } from "../src/http/api/v1/index.ts";
import { scopeCategories } from "../src/http/route.ts";
import { SCOPE_CATEGORIES, allScopeStrings, levelForMethod } from "../src/services/access/scopes.ts";
import { makeTestApp } from "./support/app.ts";

const SRC = resolve(import.meta.dir, "../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

interface Import {
  from: string;
  /** Layer folder of the importing file (`http`, `models`, ...). */
  layer: string;
  /** Resolved target: a layer folder for our modules, or the package name. */
  target: string;
  typeOnly: boolean;
  line: string;
  /** The module specifier as written. */
  spec?: string;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const layer = relative(SRC, file).split("/")[0]!.replace(/\.ts$/, "");
  const out: Import[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gms;
  for (const m of text.matchAll(re)) {
    const spec = m[3]!;
    let target = spec;
    if (spec.startsWith(".")) {
      const abs = resolve(dirname(file), spec);
      const rel = relative(SRC, abs);
      target = rel.startsWith("..") ? rel : rel.split("/")[0]!.replace(/\.ts$/, "");
    }
    out.push({ from: relative(SRC, file), layer, target, typeOnly: !!m[2], line: m[0].trim().split("\n")[0]!, spec });
  }
  return out;
}

const imports = sourceFiles(SRC).flatMap(importsOf);

/**
 * Each module of src/ with the modules of src/ it needs at run time: `import type`, `export type`
 * and imports whose every name is `type X` are erased by the compiler, so they cannot make a cycle.
 */
function runtimeImportGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const deps: string[] = [];
    const re = /^\s*(?:import|export)\s+(type\s+)?(?:([^;"]*?)\s+from\s+)?"(\.[^"]+)"/gms;
    for (const m of text.matchAll(re)) {
      if (m[1]) continue;
      const names = m[2]?.trim().match(/^\{([^}]*)\}$/s)?.[1];
      if (names !== undefined && names.split(",").map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith("type "))) continue;
      deps.push(relative(SRC, resolve(dirname(file), m[3]!)));
    }
    graph.set(relative(SRC, file), deps);
  }
  return graph;
}

/** The cycles of the graph, one per strongly connected component (Tarjan), each printed as a closed path. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) components.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  // One concrete cycle per component: a shortest path back to its first module, inside the component.
  return components.map((component) => {
    const inside = new Set(component);
    const start = component.sort()[0]!;
    const from = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of graph.get(v)!) {
        if (!inside.has(w)) continue;
        if (w === start) {
          const path = [start];
          for (let u: string | undefined = v; u !== undefined && u !== start; u = from.get(u)) path.splice(1, 0, u);
          return [...path, start];
        }
        if (!from.has(w)) (from.set(w, v), queue.push(w));
      }
    }
    return component;
  });
}

const violations = (pred: (i: Import) => boolean) => imports.filter(pred).map((i) => `${i.from}: ${i.line}`);

describe("import rules (ARCHITECTURE.md)", () => {
  test("only models/ and db/ import drizzle or bun:sqlite", () => {
    expect(
      violations((i) => /^(drizzle-orm|bun:sqlite)/.test(i.target) && !["models", "db"].includes(i.layer)),
    ).toEqual([]);
  });

  test("nothing but the CLI and the entry point imports http/", () => {
    expect(violations((i) => i.target === "http" && !["http", "cli", "main"].includes(i.layer))).toEqual([]);
  });

  test("models/ never imports services/, auth/, http/ or convert/", () => {
    expect(
      violations((i) => i.layer === "models" && ["services", "auth", "http", "convert"].includes(i.target)),
    ).toEqual([]);
  });

  test("services/ never import http/ or auth/ (who is calling is the front door's business; who may do what is services/access/)", () => {
    expect(violations((i) => i.layer === "services" && ["http", "auth"].includes(i.target))).toEqual([]);
  });

  test("services/ import convert/ only in the webhook notifier (services/webhook/notifier/), whose payloads are Gitea's API JSON", () => {
    expect(
      violations((i) => i.layer === "services" && i.target === "convert" && !i.from.startsWith("services/webhook/notifier/")),
    ).toEqual([]);
  });

  test("the webhook feature is one module: services/webhook/ (notifier, enqueue, deliver, formats); outside it only its hooks and deliveries API is used", () => {
    expect(existsSync(join(SRC, "notify"))).toBe(false);
    const inner = /\/services\/webhook\/((notifier|formats)\/|(enqueue|deliver)\.ts$)/;
    expect(
      violations(
        (i) =>
          !i.from.startsWith("services/webhook/") &&
          i.from !== "compose.ts" &&
          i.spec !== undefined &&
          inner.test(resolve(dirname(join(SRC, i.from)), i.spec)),
      ),
    ).toEqual([]);
  });

  test("http/, convert/ and auth/ reach the data layer only through services (types excepted)", () => {
    expect(
      violations((i) => ["http", "convert", "auth"].includes(i.layer) && ["models", "db"].includes(i.target) && !i.typeOnly),
    ).toEqual([]);
  });

  test("compose.ts, the composition root, is imported only by the CLI; it wires services and never imports http/", () => {
    expect(violations((i) => i.target === "compose" && i.layer !== "cli")).toEqual([]);
    expect(violations((i) => i.layer === "compose" && ["http", "convert", "auth"].includes(i.target))).toEqual([]);
  });

  test("queue handlers and event subscribers are wired per Env by the composition root, never at module level", () => {
    const wiring = sourceFiles(SRC).flatMap((f) => {
      const rel = relative(SRC, f);
      const text = readFileSync(f, "utf8");
      // Calls of the wiring functions (register…(env), subscribe…(env)) outside compose.ts...
      const calls = rel === "compose.ts" ? [] : [...text.matchAll(/^(?!\s*(export\s+)?function ).*\b(register|subscribe)[A-Z]\w*\(env\).*$/gm)];
      // ...and subscriptions or registrations made when a module loads (column 0: not inside a function).
      const atLoad = [...text.matchAll(/^[A-Za-z_$][\w$.]*\.(subscribe|register)\(.*$/gm)];
      return [...calls, ...atLoad].map((m) => `${rel}: ${m[0].trim()}`);
    });
    expect(wiring).toEqual([]);
  });

  test("config/ imports nothing of ours; lib/ only types from config/", () => {
    const ours = (t: string) => !t.includes(":") && !t.startsWith("..") && /^[a-z]+$/.test(t) && imports.some((i) => i.layer === t);
    expect(violations((i) => i.layer === "config" && i.target !== "config" && ours(i.target))).toEqual([]);
    expect(
      violations((i) => i.layer === "lib" && i.target !== "lib" && ours(i.target) && !(i.target === "config" && i.typeOnly)),
    ).toEqual([]);
  });

  test("shapes/ (Gitea's JSON shapes, one valibot schema each) imports valibot and lib/ only, so convert/ and http/ may both use it", () => {
    expect(
      violations((i) => i.layer === "shapes" && i.target !== "valibot" && !["shapes", "lib"].includes(i.target)),
    ).toEqual([]);
  });

  test("queue/ (the persistent work queue) uses the data layer and lib/ only: its handlers come from the services", () => {
    expect(
      violations((i) => i.layer === "queue" && ["services", "http", "convert", "compose", "auth", "outbound"].includes(i.target)),
    ).toEqual([]);
    expect(violations((i) => ["models", "db", "lib"].includes(i.layer) && i.target === "queue")).toEqual([]);
  });

  test("outbound/ (calls to user-chosen URLs) imports lib/ only, and only it makes HTTP requests with node:http(s)", () => {
    expect(violations((i) => i.layer === "outbound" && /^[a-z]+(\/[a-z]+)?$/.test(i.target) && !["outbound", "lib"].includes(i.target))).toEqual([]);
    expect(violations((i) => i.layer !== "outbound" && /^node:(https?|dns|dns\/promises)$/.test(i.target))).toEqual([]);
  });

  test("no runtime import cycles in src/ (type-only imports are erased and do not count)", () => {
    const cycles = importCycles(runtimeImportGraph());
    expect(cycles.map((c) => c.join(" -> "))).toEqual([]);
  });

  test("front doors (http/doors/) each bring credentials, errors and redirects, and none imports another", () => {
    const doorOf = (f: string) => /^http\/doors\/([^/]+)\.ts$/.exec(f)?.[1];
    expect(
      violations((i) => {
        const from = doorOf(i.from);
        if (!from || !i.spec) return false;
        const to = doorOf(relative(SRC, resolve(dirname(join(SRC, i.from)), i.spec)));
        return to !== undefined && to !== from;
      }),
    ).toEqual([]);
  });

  test("credentials are asked by the doors only (auth/authenticate.ts from http/doors/)", () => {
    expect(
      violations((i) => i.spec?.endsWith("auth/authenticate.ts") === true && !i.typeOnly && !i.from.startsWith("http/doors/")),
    ).toEqual([]);
  });

  test("declared access is applied by runDeclared alone: the resolver's entry points are called nowhere else", () => {
    const callers = (name: string, allowed: string[]) =>
      sourceFiles(SRC)
        .map((f) => relative(SRC, f))
        .filter((f) => !allowed.includes(f) && new RegExp(`\\b${name}\\(`).test(readFileSync(join(SRC, f), "utf8")));
    expect(callers("resolveResources", ["http/door.ts", "http/access.ts"])).toEqual([]);
    expect(callers("enforceAccess", ["http/door.ts", "http/access.ts"])).toEqual([]);
    expect(callers("checkRepoAccess", ["http/access.ts", "services/access/repo-access.ts"])).toEqual([]);
    // hearth acting on its own (asSystem) is never a request: no front door calls it.
    expect(callers("asSystem", ["services/access/repo-access.ts"]).filter((f) => f.startsWith("http/"))).toEqual([]);
  });

  test("only git/ spawns processes", () => {
    const spawning = sourceFiles(SRC).filter((f) => {
      const rel = relative(SRC, f);
      if (rel.startsWith("git/")) return false;
      return /Bun\.spawn|node:child_process|from "child_process"/.test(readFileSync(f, "utf8"));
    });
    expect(spawning.map((f) => relative(SRC, f))).toEqual([]);
  });
});

const reference = JSON.parse(
  readFileSync(resolve(import.meta.dir, "../../shared/reference/gitea-api-v1.swagger.json"), "utf8"),
) as { paths: Record<string, Record<string, { operationId: string }>> };
const shape = (p: string) => p.replace(/\{[^}]+\}/g, "{}").replace(/:[A-Za-z_]\w*/g, "{}").replace(/\/\*$/, "/{}");
const refOps = new Map<string, string>();
for (const [p, item] of Object.entries(reference.paths)) {
  for (const [m, op] of Object.entries(item)) refOps.set(`${m.toUpperCase()} ${shape(p)}`, op.operationId);
}

/**
 * hearth's own operations, beyond Gitea's API (README "API extensions"): each is listed here on
 * purpose, so an operation cannot drift away from Gitea's document by accident. The webhook
 * deliveries API (Gitea 1.25 has none; shaped after go-gitea/gitea#38775) at every hook level.
 */
const HOOK_LEVELS = { repo: "/repos/{}/{}/hooks", org: "/orgs/{}/hooks", user: "/user/hooks", admin: "/admin/hooks" };
const EXTENSION_OPS = new Map<string, string>(
  Object.entries(HOOK_LEVELS).flatMap(([name, path]) => [
    [`GET ${path}/{}/deliveries`, `${name}ListHookDeliveries`],
    [`GET ${path}/{}/deliveries/{}`, `${name}GetHookDelivery`],
    [`POST ${path}/{}/deliveries/{}/attempts`, `${name}RedeliverHookDelivery`],
  ]),
);
for (const key of EXTENSION_OPS.keys()) if (refOps.has(key)) throw new Error(`${key} is Gitea's now: drop it from the extensions`);

describe("route declarations", () => {
  test("every operation declares its access, and its scope is a real category or explicitly public", () => {
    for (const op of apiOperations) {
      expect(op.access).toBeDefined();
      const declared = Array.isArray(op.access.scope) ? op.access.scope : [op.access.scope];
      expect(declared.length).toBeGreaterThan(0);
      for (const s of declared) expect(["public", ...SCOPE_CATEGORIES]).toContain(s);
      expect([true, false, "admin"]).toContain(op.access.signIn);
    }
  });

  test("every declared resource is named by the operation's path (the runner resolves it from there)", () => {
    const problems: string[] = [];
    for (const op of apiOperations) {
      const has = (name: string) => new RegExp(`/:${name}(/|$)`).test(op.path);
      const need = (name: string, why: string) => {
        if (!has(name)) problems.push(`${op.operationId}: declares ${why} but ${op.path} has no :${name}`);
      };
      const { repo, issue, pull, org, user, package: pkg } = op.access;
      if (repo) (need("owner", "repo"), need("repo", "repo"));
      if (issue || pull) {
        if (!repo) problems.push(`${op.operationId}: an issue or pull request is declared only with its repository`);
        need("index", "issue/pull");
      }
      if (org) need("org", "org");
      if (user) need("username", "user");
      // The owner of the packages: Gitea's `/packages/{owner}` (http/access.ts resolves `:owner`).
      if (pkg) need("owner", "package");
      if (pkg && repo) problems.push(`${op.operationId}: a package owner and a repository would both be read from :owner`);
    }
    expect(problems).toEqual([]);
  });

  test("every operation is Gitea's (or a listed hearth extension), under its operationId, declared once", () => {
    const seen = new Set<string>();
    for (const op of apiOperations) {
      const key = `${op.method} ${shape(op.path)}${op.suffix ? ".{}" : ""}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
      expect({ key, operationId: refOps.get(key) ?? EXTENSION_OPS.get(key) }).toEqual({ key, operationId: op.operationId });
    }
  });

  test("the route manifest the server routes from (api/v1/manifest.gen.ts) is the declared operations'", async () => {
    const { apiManifestSource, MANIFEST_PATH } = await import("../scripts/gen-api-manifest.ts");
    expect(readFileSync(MANIFEST_PATH, "utf8")).toBe(await apiManifestSource());
  });

  test("every /api route the server answers comes from a declared operation", () => {
    const t = makeTestApp();
    const { createApp } = require("../src/http/app.ts") as typeof import("../src/http/app.ts");
    const app = createApp(t.env);
    const declared = new Set(apiOperations.map((op) => `${op.method} /api/v1${op.path}`));
    const undeclared = (app.routes as { method: string; path: string }[])
      .filter((r) => r.path.startsWith("/api/v1"))
      .map((r) => `${r.method} ${r.path}`)
      .filter((k) => !declared.has(k));
    expect(undeclared).toEqual([]);
  });

  test("every package registry endpoint is declared with the package access of its owner and the package scope", async () => {
    const { registryRoutes } = await import("../src/http/packages/routes.ts");
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const route of registryRoutes) {
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) problems.push(`${key}: routed twice`);
      seen.add(key);
      const spec = (await route.load())[route.name] as { kind?: string; access?: { scope?: unknown; package?: string; repo?: unknown } } | undefined;
      if (spec?.kind !== "registry" || !spec.access) problems.push(`${key}: ${route.name} is not a registry endpoint declared in its module`);
      else if (!spec.access.package || spec.access.scope !== "package") problems.push(`${key}: must declare package access and the package scope`);
      else if (route.method !== "GET" && route.method !== "HEAD" && spec.access.package !== "write") problems.push(`${key}: a write must declare package: "write"`);
    }
    expect(problems).toEqual([]);
  });

  test("every container registry endpoint (/v2/) is declared with the package scope, and with package access where its path names an owner", async () => {
    const { containerRoutes } = await import("../src/http/packages/container-routes.ts");
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const route of containerRoutes) {
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) problems.push(`${key}: routed twice`);
      seen.add(key);
      if (!route.path.startsWith("/v2")) problems.push(`${key}: the container registry lives under /v2`);
      const spec = (await route.load())[route.name] as { kind?: string; type?: string; access?: { scope?: unknown; package?: string } } | undefined;
      if (spec?.kind !== "registry" || !spec.access || spec.type !== "container") problems.push(`${key}: ${route.name} is not a container endpoint declared in its module`);
      else if (spec.access.scope !== "package") problems.push(`${key}: must declare the package scope`);
      else if (route.path.includes(":owner") && !spec.access.package) problems.push(`${key}: a path naming an owner must declare package access`);
      else if (!route.path.includes(":owner") && spec.access.package) problems.push(`${key}: package access needs :owner in the path`);
      else if (route.method !== "GET" && route.method !== "HEAD" && spec.access.package !== "write") problems.push(`${key}: a write must declare package: "write"`);
    }
    expect(problems).toEqual([]);
  });

  test("every web page is declared with its access, and every resource it declares is named by its path", async () => {
    const { webRoutes } = await import("../src/http/web/routes.ts");
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const route of webRoutes) {
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) problems.push(`${key}: routed twice`);
      seen.add(key);
      const spec = (await route.load())[route.name] as { kind?: string; acceptsTokens?: true; access?: Parameters<typeof scopeCategories>[0] } | undefined;
      if (spec?.kind !== "page" || !spec.access) {
        problems.push(`${key}: ${route.name} is not a page declared in its module`);
        continue;
      }
      const has = (name: string) => new RegExp(`/:${name}(/|$)`).test(route.path);
      const { repo, issue, pull, org, user } = spec.access;
      if (repo && !(has("owner") && has("repo"))) problems.push(`${key}: declares repo without :owner/:repo`);
      if ((issue || pull) && !(repo && has("index"))) problems.push(`${key}: declares an issue or pull without its repository and :index`);
      if (org && !has("org")) problems.push(`${key}: declares org without :org`);
      if (user && !has("username")) problems.push(`${key}: declares user without :username`);
      // Sessions carry no token scope: a page's scope is "public", unless it also takes tokens (a
      // download), whose scope is then checked as the API's.
      if (spec.access.scope !== "public" && !spec.acceptsTokens) problems.push(`${key}: a page without tokens has scope "public"`);
    }
    expect(problems).toEqual([]);
  });
});

describe("token scopes on every route", () => {
  const t = makeTestApp();
  const scoped = apiOperations.filter((op) => op.access.scope !== "public");

  test("there are scoped routes to walk", () => {
    expect(scoped.length).toBeGreaterThan(5);
  });

  test("a token holding every scope but a required one gets 403", async () => {
    const admin = await t.user("scopewalker", { admin: true });
    const failures: string[] = [];
    for (const op of scoped) {
      const level = levelForMethod(op.method);
      for (const category of scopeCategories(op.access)) {
        const needed = `${level}:${category}`;
        // Everything else: all other categories at write, and for a write route the read of its own.
        const scopes = allScopeStrings().filter(
          (s) => (s.includes(":") && !s.endsWith(`:${category}`)) || (level === "write" && s === `read:${category}`),
        );
        const token = t.token(admin, scopes);
        const path = "/api/v1" + op.path.replace(/:([A-Za-z_]\w*)/g, "scopewalker");
        for (const auth of [{ token }, { basic: ["scopewalker", token] as [string, string] }]) {
          const r = await t.json(op.method, path, { ...auth, body: op.body ? {} : undefined });
          if (r.status !== 403 || !String(r.body?.message).includes(needed)) {
            failures.push(`${op.method} ${op.path} (${op.operationId}) without ${needed}: ${r.status} ${JSON.stringify(r.body)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  test("the same token with the required scope gets past the scope check", async () => {
    const admin = await t.user("scopeholder", { admin: true });
    const failures: string[] = [];
    for (const op of scoped) {
      const token = t.token(admin, scopeCategories(op.access).map((c) => `${levelForMethod(op.method)}:${c}`));
      const path = "/api/v1" + op.path.replace(/:([A-Za-z_]\w*)/g, "scopeholder");
      const r = await t.json(op.method, path, { basic: ["scopeholder", token], body: op.body ? {} : undefined });
      if (r.status === 403 && String(r.body?.message).startsWith("token does not have")) {
        failures.push(`${op.method} ${op.path}: ${r.body.message}`);
      }
      expect(r.status).toBeLessThan(500);
    }
    expect(failures).toEqual([]);
  });
});
