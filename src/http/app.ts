import { Elysia } from "elysia";
import type { Env } from "../services/env.ts";
import { FailureLimiter } from "../auth/ratelimit.ts";
import { apiOperations } from "./api/v1/index.ts";
import { routeTable } from "./route-table.ts";
import { runOperation } from "./operation-runner.ts";
import { precompressed } from "./precompressed.ts";
import { errorResponse, JSON_TYPE, jsonResponse } from "./respond.ts";
import { healthz } from "./healthz.ts";
import { staticResponse, swaggerPage } from "./static.ts";
import { avatarFile } from "../services/user/avatar.ts";
import { repoAvatarFile } from "../services/repo/avatar.ts";
import { NotFound } from "../lib/errors.ts";
import { clientIp } from "./client-ip.ts";
import { handleGit, type GitRequest } from "./git.ts";
import { handleHook } from "./internal/hooks.ts";
import { serveAttachment } from "./attachment-download.ts";

/**
 * Assembles the whole HTTP surface in one place: the /api/v1 operations (each declared once, in
 * http/api/v1), the Swagger 2.0 document generated from them, health, the API docs page and embedded
 * assets. Unknown /api paths answer Gitea's JSON 404. Only HTTP: `env` comes composed, its queue
 * handlers and event subscribers wired (src/compose.ts).
 */
export function createApp(env: Env) {
  const limiter = new FailureLimiter(
    env.settings.security.loginRateLimit,
    env.settings.security.loginRateWindowSeconds * 1000,
  );
  const deps = { env, limiter };
  // Built on first request (ROOT_URL is final by then) and kept, raw and compressed; the generator
  // and its JSON Schema converter are loaded then too, not at start-up.
  let swaggerDoc: Promise<(request: Request) => Response> | undefined;

  const app = new Elysia({ normalize: false });

  for (const { method, path, pick } of routeTable(apiOperations)) {
    app.route(
      method,
      `/api/v1${path}`,
      ({ request, params }: { request: Request; params: Record<string, string> }) => {
        const chosen = pick(params);
        if (!chosen) return errorResponse(env, new NotFound());
        return runOperation(deps, chosen.op, request, chosen.params, clientIp(request));
      },
      { parse: "none" } as never,
    );
  }

  app.get("/api/healthz", () => healthz(env));

  // Uploaded avatars of accounts and of repositories, named by content hash: cacheable for good.
  const serveAvatar = (find: typeof avatarFile) => async ({ params }: { params: Record<string, string> }) => {
    const found = await find(env, params.name ?? "");
    if (!found) return new Response("404 page not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    return new Response(Bun.file(found.path), {
      headers: { "Content-Type": found.type, "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" },
    });
  };
  app.get("/avatars/:name", serveAvatar(avatarFile));
  app.get("/repo-avatars/:name", serveAvatar(repoAvatarFile));

  // Issue and comment files (`browser_download_url`), served to whoever may read what they belong to.
  app.get("/attachments/:uuid", ({ request, params }: { request: Request; params: Record<string, string> }) =>
    serveAttachment(env, limiter, request, clientIp(request), params.uuid ?? ""),
  );

  // Git smart HTTP: `/{owner}/{repo}.git/...`, also without `.git`, as Gitea serves it.
  const git = (action: GitRequest["action"]) => ({ request, params }: { request: Request; params: Record<string, string> }) =>
    handleGit(env, limiter, request, clientIp(request), { owner: params.owner ?? "", repo: params.repo ?? "", action });
  app.get("/:owner/:repo/info/refs", git("info/refs"), { parse: "none" } as never);
  app.post("/:owner/:repo/git-upload-pack", git("git-upload-pack"), { parse: "none" } as never);
  app.post("/:owner/:repo/git-receive-pack", git("git-receive-pack"), { parse: "none" } as never);

  // Called by the git hooks of a push in progress; not part of the API document.
  app.post("/api/internal/hook/pre-receive", ({ request }) => handleHook(env, request, "pre-receive"), { parse: "none" } as never);
  app.post("/api/internal/hook/post-receive", ({ request }) => handleHook(env, request, "post-receive"), { parse: "none" } as never);
  if (env.settings.api.enableSwagger) {
    app.get("/swagger.v1.json", async ({ request }) => {
      swaggerDoc ??= import("./swagger.ts").then(({ buildSwagger }) =>
        precompressed(JSON.stringify(buildSwagger(apiOperations, env.settings.server.rootUrl)), JSON_TYPE),
      );
      // A failed build is not kept: the next request tries again, as before it was loaded lazily.
      swaggerDoc.catch(() => (swaggerDoc = undefined));
      return (await swaggerDoc)(request);
    });
    app.get("/api/swagger", () => swaggerPage(env.settings.server.rootUrl));
  }

  app.onError(({ code, error, request }) => {
    const path = new URL(request.url).pathname;
    if (code === "NOT_FOUND") {
      const asset = request.method === "GET" || request.method === "HEAD" ? staticResponse(path) : undefined;
      if (asset) return asset;
      if (path === "/api" || path.startsWith("/api/")) return errorResponse(env, new NotFound());
      return new Response("404 page not found\n", {
        status: 404,
        headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
      });
    }
    if (code === "PARSE" || code === "VALIDATION") {
      return jsonResponse(422, { message: String((error as Error).message), url: `${env.settings.server.rootUrl}api/swagger` });
    }
    return errorResponse(env, error);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
