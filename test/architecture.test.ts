import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
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
    out.push({ from: relative(SRC, file), layer, target, typeOnly: !!m[2], line: m[0].trim().split("\n")[0]! });
  }
  return out;
}

const imports = sourceFiles(SRC).flatMap(importsOf);
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

  test("services/ never import http/, convert/ or auth/ (who is calling is the front door's business; who may do what is services/access/)", () => {
    expect(violations((i) => i.layer === "services" && ["http", "convert", "auth"].includes(i.target))).toEqual([]);
  });

  test("notify/ (event subscribers that build outward payloads) sits beside http/: it may use services and convert, never http", () => {
    expect(violations((i) => i.layer === "notify" && i.target === "http")).toEqual([]);
    expect(violations((i) => ["services", "models", "convert", "auth"].includes(i.layer) && i.target === "notify")).toEqual([]);
  });

  test("http/, convert/, notify/ and auth/ reach the data layer only through services (types excepted)", () => {
    expect(
      violations((i) => ["http", "convert", "notify", "auth"].includes(i.layer) && ["models", "db"].includes(i.target) && !i.typeOnly),
    ).toEqual([]);
  });

  test("config/ imports nothing of ours; lib/ only types from config/", () => {
    const ours = (t: string) => !t.includes(":") && !t.startsWith("..") && /^[a-z]+$/.test(t) && imports.some((i) => i.layer === t);
    expect(violations((i) => i.layer === "config" && i.target !== "config" && ours(i.target))).toEqual([]);
    expect(
      violations((i) => i.layer === "lib" && i.target !== "lib" && ours(i.target) && !(i.target === "config" && i.typeOnly)),
    ).toEqual([]);
  });

  test("queue/ (the persistent work queue) uses the data layer and lib/ only: its handlers come from the services", () => {
    expect(
      violations((i) => i.layer === "queue" && ["services", "http", "convert", "notify", "auth", "outbound"].includes(i.target)),
    ).toEqual([]);
    expect(violations((i) => ["models", "db", "lib"].includes(i.layer) && i.target === "queue")).toEqual([]);
  });

  test("outbound/ (calls to user-chosen URLs) imports lib/ only, and only it makes HTTP requests with node:http(s)", () => {
    expect(violations((i) => i.layer === "outbound" && /^[a-z]+(\/[a-z]+)?$/.test(i.target) && !["outbound", "lib"].includes(i.target))).toEqual([]);
    expect(violations((i) => i.layer !== "outbound" && /^node:(https?|dns|dns\/promises)$/.test(i.target))).toEqual([]);
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
      const { repo, issue, pull, org, user } = op.access;
      if (repo) (need("owner", "repo"), need("repo", "repo"));
      if (issue || pull) {
        if (!repo) problems.push(`${op.operationId}: an issue or pull request is declared only with its repository`);
        need("index", "issue/pull");
      }
      if (org) need("org", "org");
      if (user) need("username", "user");
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
