import type { Env } from "../services/env.ts";
import { FailureLimiter } from "../auth/ratelimit.ts";
import { apiGroups, apiRoutes } from "./api/v1/manifest.gen.ts";
import { routeTable } from "./route-table.ts";
import { runOperation } from "./operation-runner.ts";
import { precompressed } from "./precompressed.ts";
import { errorResponse, JSON_TYPE } from "./respond.ts";
import { healthz } from "./healthz.ts";
import { staticResponse, swaggerPage } from "./static.ts";
import { avatarFile } from "../services/user/avatar.ts";
import { repoAvatarFile } from "../services/repo/avatar.ts";
import { NotFound } from "../lib/errors.ts";
import type { AnyOperation } from "./route.ts";
import type { ApiRoute } from "./route-table.ts";
import { clientIp } from "./client-ip.ts";
import type { GitRequest } from "./git.ts";
import { answerHead, requestPath, Router, type RouteParams } from "./router.ts";

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

  const router = new Router();

  // Each operation module is imported when the first of its operations is called (the manifest knows
  // every route without it): a start does not build ~350 operations, their shapes and services.
  const loaded = new Map<number, Promise<Map<string, AnyOperation>>>();
  const operationOf = async (route: ApiRoute): Promise<AnyOperation> => {
    let group = loaded.get(route.group);
    if (!group) {
      group = apiGroups[route.group]!().then((ops) => new Map(ops.map((op) => [op.operationId, op])));
      // A failed import is not kept: the next call tries again.
      group.catch(() => loaded.delete(route.group));
      loaded.set(route.group, group);
    }
    const op = (await group).get(route.operationId);
    if (!op) throw new Error(`operation ${route.operationId} is not in its module: regenerate api/v1/manifest.gen.ts`);
    return op;
  };
  for (const { method, path, pick } of routeTable(apiRoutes)) {
    router.add(method, `/api/v1${path}`, async (request, params) => {
      const chosen = pick(params);
      if (!chosen) return errorResponse(env, new NotFound());
      return runOperation(deps, await operationOf(chosen.op), request, chosen.params, clientIp(request));
    });
  }

  router.add("GET", "/api/healthz", () => healthz(env));

  // Package registries (under /api/packages/{owner}/{type}/... and the container registry's /v2/...)
  // and the web pages have route tables
  // of their own, built by the first request that needs one (a start routes neither), each
  // registry's and page's module imported by its own first request.
  let registryRouter: Promise<Router> | undefined;
  const registries = () =>
    (registryRouter ??= Promise.all([import("./packages/routes.ts"), import("./packages/container-routes.ts")]).then(([{ registryRoutes }, { containerRoutes }]) => {
      const r = new Router();
      for (const route of registryRoutes) {
        r.add(route.method, `/api/packages/:owner${route.path}`, async (request, params) =>
          (await import("./packages/run-registry.ts")).runRegistry(deps, route, request, params, clientIp(request)),
        );
      }
      // The container registry (OCI distribution) at the site root: /v2/...
      for (const route of containerRoutes) {
        r.add(route.method, route.path, async (request, params) =>
          (await import("./packages/registries/container-run.ts")).runContainer(deps, route, request, params, clientIp(request)),
        );
      }
      return r;
    }));

  // Uploaded avatars of accounts and of repositories, named by content hash: cacheable for good.
  const serveAvatar = (find: typeof avatarFile) => async (_request: Request, params: RouteParams) => {
    const found = await find(env, params.name ?? "");
    if (!found) return new Response("404 page not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    return new Response(Bun.file(found.path), {
      headers: { "Content-Type": found.type, "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" },
    });
  };
  router.add("GET", "/avatars/:name", serveAvatar(avatarFile));
  router.add("GET", "/repo-avatars/:name", serveAvatar(repoAvatarFile));


  // Git smart HTTP: `/{owner}/{repo}.git/...`, also without `.git`, as Gitea serves it. (The git
  // transport and the push hooks' handler are imported by their first
  // request, like the API's operations: `--splitting` keeps them out of a start.)
  const git = (action: GitRequest["action"]) => async (request: Request, params: RouteParams) =>
    (await import("./git.ts")).handleGit(env, limiter, request, clientIp(request), { owner: params.owner ?? "", repo: params.repo ?? "", action });
  router.add("GET", "/:owner/:repo/info/refs", git("info/refs"));
  router.add("POST", "/:owner/:repo/git-upload-pack", git("git-upload-pack"));
  router.add("POST", "/:owner/:repo/git-receive-pack", git("git-receive-pack"));

  // Called by the git hooks of a push in progress; not part of the API document.
  const hook = (which: "pre-receive" | "post-receive") => async (request: Request) => (await import("./internal/hooks.ts")).handleHook(env, request, which);
  router.add("POST", "/api/internal/hook/pre-receive", hook("pre-receive"));
  router.add("POST", "/api/internal/hook/post-receive", hook("post-receive"));
  if (env.settings.api.enableSwagger) {
    router.add("GET", "/swagger.v1.json", async (request) => {
      swaggerDoc ??= Promise.all([import("./swagger.ts"), import("./api/v1/index.ts")]).then(([{ buildSwagger }, { apiOperations }]) =>
        precompressed(JSON.stringify(buildSwagger(apiOperations, env.settings.server.rootUrl)), JSON_TYPE),
      );
      // A failed build is not kept: the next request tries again, as before it was loaded lazily.
      swaggerDoc.catch(() => (swaggerDoc = undefined));
      return (await swaggerDoc)(request);
    });
    router.add("GET", "/api/swagger", () => swaggerPage(env.settings.server.rootUrl));
  }

  // Web pages: each page's module (and the page machinery itself) is imported by its first request.
  const webPages = () => import("./web/run-page.ts");
  // A page path's first segment can be any name, but /api belongs to the API: what it does not
  // route is the API's JSON 404, never a profile or repository page of a user called "api".
  const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");
  let webRouter: Promise<Router> | undefined;
  const pages = () =>
    (webRouter ??= import("./web/routes.ts").then(({ webRoutes }) => {
      const r = new Router();
      for (const route of webRoutes) {
        r.add(route.method, route.path, async (request, params) => (await webPages()).runPage(deps, route, request, params, clientIp(request)));
      }
      return r;
    }));
  // The web interface's stylesheet and logo, named by content hash; other assets are embedded files.
  const asset = async (request: Request) =>
    (await import("./web/assets.ts")).webAsset(request, requestPath(request.url)) ?? notFound(request, requestPath(request.url));
  router.add("GET", "/assets/css/:file", asset);
  router.add("GET", "/assets/img/:file", asset);
  router.add("GET", "/assets/js/:file", asset);

  /** No route: an embedded asset, Gitea's JSON 404 under /api, else the web's 404 page. */
  const notFound = async (request: Request, path: string): Promise<Response> => {
    const asset = request.method === "GET" || request.method === "HEAD" ? staticResponse(path) : undefined;
    if (asset) return asset;
    // The Actions runners' Connect procedures, imported by the first runner's call.
    if (path.startsWith("/api/actions/")) return (await import("./runner/routes.ts")).serveRunner(env, request, path);
    // The artifact v4 protocol (upload-artifact@v4), mounted at the root as Gitea mounts it, and
    // the API's signed raw artifact download, which Gitea serves outside its API middleware.
    if (path.startsWith("/twirp/github.actions.results.api.v1.ArtifactService/")) {
      return (await import("./runner/artifacts.ts")).serveArtifactsV4(env, request, path);
    }
    // The legacy artifact protocol of upload-artifact@v3.
    if (path.startsWith("/api/actions_pipeline/")) return (await import("./runner/artifacts-v3.ts")).serveArtifactsV3(env, request, path);
    if (path.startsWith("/api/v1/repos/") && path.includes("/actions/artifacts/") && /\/zip\/raw\/?$/.test(path)) {
      return (await import("./runner/artifacts.ts")).serveArtifactRaw(env, request, path);
    }
    // What the main table does not route: a registry's path, a web page, else a 404 in the door's format.
    const registry = path.startsWith("/api/packages/") || path === "/v2" || path.startsWith("/v2/");
    const sub = registry ? await registries() : isApiPath(path) ? undefined : await pages();
    const match = sub?.find(request.method, path);
    if (match) return match.handler(request, match.params);
    if (isApiPath(path)) return errorResponse(env, new NotFound());
    return (await webPages()).notFoundPage(deps, request, clientIp(request));
  };

  return {
    routes: router.routes,
    /** Answers one request (the server's fetch handler, and the tests' in-process client). */
    async handle(request: Request): Promise<Response> {
      const path = requestPath(request.url);
      const match = router.find(request.method, path);
      let response: Response;
      try {
        response = match ? await match.handler(request, match.params) : await notFound(request, path);
      } catch (err) {
        response = errorResponse(env, err);
      }
      return request.method === "HEAD" ? answerHead(response) : response;
    },
  };
}

export type App = ReturnType<typeof createApp>;
