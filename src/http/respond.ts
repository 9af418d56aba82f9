import { tmpdir } from "node:os";
import { HearthError, Redirect, TooManyRequests } from "../lib/errors.ts";
import type { Env } from "../services/env.ts";
import type { Principal } from "../auth/principal.ts";

export const JSON_TYPE = "application/json;charset=utf-8";

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": JSON_TYPE, ...headers } });
}

export function swaggerUrl(env: Env): string {
  return `${env.settings.server.rootUrl}api/swagger`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * An internal error's text with every server path cut out (git's stderr names the repository
 * directory, scratch worktrees live under the temp directory): admins see what went wrong, not
 * where the server keeps its files.
 */
export function redactServerPaths(env: Env, message: string): string {
  const { settings } = env;
  const roots = [settings.repository.root, settings.server.appDataPath, settings.workPath, settings.customPath, tmpdir()]
    .filter((p) => p && p !== "/")
    .sort((a, b) => b.length - a.length);
  if (!roots.length) return message;
  // From a root to the end of the path it starts: up to a quote, a space or the end of the line.
  const pattern = new RegExp(`(?:${roots.map(escapeRegExp).join("|")})[^\\s'"\`]*`, "g");
  return message.replace(pattern, "[server path]");
}

/**
 * The one place an error becomes a response: typed errors keep their status and message;
 * anything else is a 500 whose text only admins and dev mode see, as in Gitea.
 */
export function errorResponse(
  env: Env,
  err: unknown,
  headers: Record<string, string> = {},
  principal?: Principal,
): Response {
  if (err instanceof Redirect) {
    return new Response(null, { status: err.status, headers: { ...headers, Location: err.location } });
  }
  if (err instanceof HearthError) {
    const extra: Record<string, string> =
      err instanceof TooManyRequests ? { "Retry-After": String(err.retryAfterSeconds) } : {};
    return jsonResponse(err.status, { message: err.message, url: swaggerUrl(env) }, { ...headers, ...extra });
  }
  env.log.error("internal error", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  const show = env.settings.runMode === "dev" || principal?.user.isAdmin;
  return jsonResponse(
    500,
    { message: show && err instanceof Error ? redactServerPaths(env, err.message) : "", url: swaggerUrl(env) },
    headers,
  );
}
