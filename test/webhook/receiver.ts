import { afterAll } from "bun:test";
import { createHmac } from "node:crypto";
import { writeTx } from "../../src/db/client.ts";
import { HookContentType, type RepoRow, type UserRow, type WebhookRow } from "../../src/db/schema/index.ts";
import { insertWebhook, updateWebhook } from "../../src/models/webhook.ts";
import { sealAuthorization } from "../../src/services/webhook/auth-header.ts";
import { getRepoByOwner } from "../../src/models/repo.ts";
import type { Env } from "../../src/services/env.ts";

/** What a local webhook receiver got. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1: records every request and answers with `respond` (200 by
 * default), which a test may swap at any time.
 */
export function startReceiver() {
  const got: Received[] = [];
  let waiters: { n: number; resolve: () => void }[] = [];
  const state = {
    respond: (_r: Received): Response | Promise<Response> => new Response("ok"),
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const u = new URL(req.url);
      const r: Received = { method: req.method, path: u.pathname, query: u.searchParams, headers: req.headers, body: await req.text(), at: Date.now() };
      got.push(r);
      waiters = waiters.filter((w) => (got.length >= w.n ? (w.resolve(), false) : true));
      return state.respond(r);
    },
  });
  afterAll(() => server.stop(true));
  return {
    got,
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    state,
    /** Resolves once `n` requests in all have arrived. */
    waitFor(n: number, timeoutMs = 30_000): Promise<void> {
      if (got.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`receiver: ${got.length} of ${n} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(t), resolve()) });
      });
    },
  };
}

export const hmac = (algo: "sha1" | "sha256", secret: string, body: string) => createHmac(algo, secret).update(body).digest("hex");

export const EVERYTHING = JSON.stringify({ push_only: false, send_everything: true, choose_events: false, branch_filter: "", events: {} });

/** A hook row, with its Authorization header sealed as the API stores it. */
export function addHook(
  env: Env,
  at: { repoId?: number; ownerId?: number; system?: boolean },
  opts: { url: string; secret?: string; authorization?: string; type?: string; contentType?: number; httpMethod?: string; events?: string; active?: boolean },
): WebhookRow {
  return writeTx(env.db, (tx) => {
    const now = Math.floor(Date.now() / 1000);
    const hook = insertWebhook(tx, {
      repoId: at.repoId ?? 0,
      ownerId: at.ownerId ?? 0,
      isSystemWebhook: at.system ?? false,
      url: opts.url,
      httpMethod: opts.httpMethod ?? "POST",
      contentType: opts.contentType ?? HookContentType.Json,
      secret: opts.secret ?? "",
      events: opts.events ?? EVERYTHING,
      isActive: opts.active ?? true,
      type: opts.type ?? "gitea",
      createdUnix: now,
      updatedUnix: now,
    });
    if (!opts.authorization) return hook;
    return updateWebhook(tx, hook.id, { headerAuthorizationEncrypted: sealAuthorization(env, hook.id, opts.authorization) })!;
  });
}

export function repoRow(env: Env, owner: UserRow, name: string): RepoRow {
  return getRepoByOwner(env.db, owner.id, name)!;
}
