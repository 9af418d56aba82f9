import type { FailureLimiter } from "../../auth/ratelimit.ts";
import type { Env } from "../../services/env.ts";
import { BadRequest, Forbidden, TooLarge } from "../../lib/errors.ts";
import { newCall, runDeclared } from "../door.ts";
import { errorPage, webDoor } from "../doors/web.ts";
import type { RouteParams } from "../router.ts";
import { renderPage } from "./layout.ts";
import type { AnyPage, PageContext } from "./page.ts";
import { subUrl, WebState } from "./state.ts";
import type { WebRoute } from "./routes.ts";

export interface WebDeps {
  env: Env;
  limiter: FailureLimiter;
}

/** Forms are small; a multipart one carries at most an avatar. */
const formLimit = (env: Env) => env.settings.picture.avatarMaxFileSize + 64 * 1024;

/**
 * Whether a form post came from another site: the browser's Sec-Fetch-Site says so, else an Origin
 * that is neither ROOT_URL's nor the request's own. A request with neither header (curl, an old
 * script) passes; it then proves itself with the `_csrf` field if it sends one.
 */
export function crossSite(env: Env, request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  return origin !== new URL(env.settings.server.rootUrl).origin && origin !== new URL(request.url).origin;
}

async function readForm(env: Env, request: Request): Promise<{ form: URLSearchParams; files: Map<string, File> }> {
  const files = new Map<string, File>();
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > formLimit(env)) throw new TooLarge();
  if (type === "multipart/form-data") {
    const data = await request.formData().catch(() => {
      throw new BadRequest("The form could not be read.");
    });
    const form = new URLSearchParams();
    for (const [name, value] of data) {
      if (typeof value === "string") form.append(name, value);
      else files.set(name, value);
    }
    return { form, files };
  }
  const text = await request.text();
  if (text.length > formLimit(env)) throw new TooLarge();
  return { form: new URLSearchParams(text), files };
}

/** Gitea's goGet: `?go-get=1` is answered under any path, before sign-in (pages/repo/go-get.ts). */
async function goGetMeta(deps: WebDeps, request: Request): Promise<Response | undefined> {
  if (request.method !== "GET" || !request.url.includes("go-get=1")) return undefined;
  return (await import("./pages/repo/go-get.ts")).goGet(deps.env, request);
}

/** Runs one page: the session, the form's origin checks, then the declared access and the handler. */
export async function runPage(deps: WebDeps, route: WebRoute, request: Request, params: RouteParams, ip: string): Promise<Response> {
  const goGet = await goGetMeta(deps, request);
  if (goGet) return goGet;
  const { env } = deps;
  const state = new WebState(env, request);
  const spec = (await route.load())[route.name] as AnyPage | undefined;
  if (!spec || spec.kind !== "page") throw new Error(`web page ${route.name} is not in its module`);
  // A clone URL pasted into the browser (`/{owner}/{repo}.git`) opens the repository, as Gitea's
  // RepoAssignment redirects it.
  if (request.method === "GET" && params.repo && /\.git$/i.test(params.repo) && route.path.startsWith("/:owner/:repo")) {
    const url = new URL(request.url);
    const parts = url.pathname.split("/");
    parts[2] = encodeURIComponent(params.repo.slice(0, -4));
    return new Response(null, { status: 301, headers: { Location: `${subUrl(env)}${parts.join("/")}${url.search}` } });
  }
  const call = newCall(request, ip, spec.access);
  const door = webDoor(env, state, { signInExempt: spec.signInExempt === true, tokens: spec.acceptsTokens ? deps.limiter : undefined });
  const base = subUrl(env);

  let form = new URLSearchParams();
  let files = new Map<string, File>();
  if (request.method === "POST") {
    try {
      if (crossSite(env, request)) throw new Forbidden("Cross-site form posts are refused.");
      ({ form, files } = await readForm(env, request));
      const token = form.get("_csrf");
      if (token !== null && token !== state.cookies.get("_csrf")) throw new BadRequest("Invalid CSRF token: reload the page and try again.");
    } catch (err) {
      return state.apply(door.errorResponse(err, call));
    }
  }

  const response = await runDeclared(
    door,
    call,
    { access: spec.access, level: request.method === "GET" || request.method === "HEAD" ? "read" : "write", decode: () => ({ params }) },
    async (granted) => {
      const ctx: PageContext = {
        env,
        request,
        url: call.url,
        params,
        query: call.url.searchParams,
        form,
        files,
        principal: call.principal,
        state,
        ip,
        limiter: deps.limiter,
        base,
        render: (opts) => renderPage({ env, state, doer: granted.doer }, request, opts),
        redirect: (path, flash) => {
          if (flash) state.flash(flash);
          return new Response(null, { status: 303, headers: { Location: `${base}${path}` } });
        },
      };
      return spec.handler({ ...ctx, ...granted } as never);
    },
  );
  return state.apply(response);
}



/** A path no route knows: the 404 page, with the visitor's own header. */
export async function notFoundPage(deps: WebDeps, request: Request, ip: string): Promise<Response> {
  const goGet = await goGetMeta(deps, request);
  if (goGet) return goGet;
  const state = new WebState(deps.env, request);
  const call = newCall(request, ip, { scope: "public", signIn: false });
  const door = webDoor(deps.env, state, { signInExempt: false });
  try {
    call.principal = await door.authenticate(call);
  } catch (err) {
    return state.apply(door.errorResponse(err, call));
  }
  return state.apply(errorPage(deps.env, state, call, 404));
}
