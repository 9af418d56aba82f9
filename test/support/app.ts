import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "bun:test";
import { buildSettings, type Settings } from "../../src/config/settings.ts";
import { parseIni } from "../../src/config/ini-source.ts";
import { openDatabase } from "../../src/db/client.ts";
import { enableGroupCommit } from "../../src/db/group-commit.ts";
import { answer } from "../../src/http/answer.ts";
import { createLogger } from "../../src/lib/log.ts";
import type { Env } from "../../src/services/env.ts";
import { composeEnv } from "../../src/compose.ts";
import { createApp } from "../../src/http/app.ts";
import { rememberClientIp } from "../../src/http/client-ip.ts";
import { createUser } from "../../src/services/user/account.ts";
import { createToken } from "../../src/services/user/tokens.ts";
import type { UserRow } from "../../src/db/schema/index.ts";

export const ROOT_URL = "http://hearth.test/";

export interface RequestOptions {
  token?: string;
  basic?: [string, string];
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestApp {
  env: Env;
  settings: Settings;
  dir: string;
  request(method: string, path: string, opts?: RequestOptions): Promise<Response>;
  /** Request and parse JSON; asserts nothing, returns status, headers and body. */
  json<T = any>(method: string, path: string, opts?: RequestOptions): Promise<{ status: number; headers: Headers; body: T }>;
  user(name: string, opts?: { admin?: boolean; password?: string; email?: string }): Promise<UserRow>;
  token(user: UserRow, scopes?: string[], name?: string): string;
  /** A JSON request that must answer `status` (200 by default); the body is returned, a mismatch shows it. */
  ok(method: string, path: string, token: string | undefined, body?: unknown, status?: number): Promise<any>;
}

/** The settings of a test instance in `dir`: the test defaults with `ini` (an app.ini text) merged over them. */
export function testSettings(dir: string, ini = ""): Settings {
  const raw = parseIni(
    `[server]\nROOT_URL = ${ROOT_URL}\nAPP_DATA_PATH = ${join(dir, "data")}\n[security]\nSECRET_KEY = test-secret\nINTERNAL_TOKEN = test-internal\n[log]\nLEVEL = none\n${ini}`,
  );
  return buildSettings(raw, {
    workPath: dir,
    customPath: join(dir, "custom"),
    configFile: join(dir, "custom/conf/app.ini"),
  }).settings;
}

/**
 * An in-process hearth over a fresh temp directory and database, driven through `app.handle`.
 * `ini` is an app.ini text merged over the test defaults.
 */
export function makeTestApp(ini = "", opts: { listen?: boolean } = {}): TestApp & { baseUrl: string } {
  const dir = mkdtempSync(join(tmpdir(), "hearth-test-"));
  const settings = testSettings(dir, ini);
  const database = openDatabase(settings.database.path);
  const env = composeEnv(settings, database.db, createLogger("none"));
  const app = createApp(env);
  // As `hearth web` runs: writes of one event-loop turn share a commit, answers wait for it.
  enableGroupCommit(database.sqlite);
  env.queue.start();
  let baseUrl = ROOT_URL;
  let server: ReturnType<typeof Bun.serve> | undefined;
  if (opts.listen) {
    // A real socket, for real git clients and for the hooks git runs, which call back over HTTP.
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      maxRequestBodySize: 1024 * 1024 * 1024,
      idleTimeout: 0,
      fetch: (request, srv) => {
        rememberClientIp(request, srv.requestIP(request)?.address);
        return answer(app, env, request);
      },
    });
    baseUrl = `http://127.0.0.1:${server.port}/`;
    settings.server.rootUrl = baseUrl;
    settings.server.localRootUrl = baseUrl;
  }
  afterAll(async () => {
    server?.stop(true);
    await env.queue.stop();
    await env.housekeeper.stop();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let n = 0;

  const request = (method: string, path: string, opts: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.Authorization = `token ${opts.token}`;
    if (opts.basic) headers.Authorization = `Basic ${Buffer.from(opts.basic.join(":")).toString("base64")}`;
    let body: string | Uint8Array | FormData | undefined;
    if (opts.body instanceof Uint8Array || opts.body instanceof FormData) {
      // Sent as given: raw bytes (malformed text), or a multipart form with its own boundary.
      body = opts.body;
    } else if (opts.body !== undefined) {
      body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
      headers["Content-Type"] ??= "application/json";
    }
    return answer(app, env, new Request(new URL(path.replace(/^\//, ""), baseUrl).href, { method, headers, body }));
  };

  return {
    env,
    settings,
    dir,
    baseUrl,
    request,
    async json(method, path, opts) {
      const res = await request(method, path, opts);
      const text = await res.text();
      let body: any = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: the raw text is returned */
      }
      return { status: res.status, headers: res.headers, body };
    },
    async user(name, opts = {}) {
      return createUser(env, {
        username: name,
        email: opts.email ?? `${name.toLowerCase()}@example.com`,
        password: opts.password ?? "password123",
        isAdmin: opts.admin ?? false,
        mustChangePassword: false,
      });
    },
    token(user, scopes = ["all"], name) {
      return createToken(env, user, name ?? `t${++n}`, scopes).token;
    },
    async ok(method, path, token, body, status = 200) {
      const r = await this.json(method, path, { token, body });
      expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
      return r.body;
    },
  };
}
