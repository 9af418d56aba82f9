import type { Env } from "../../services/env.ts";
import type { Principal } from "../../auth/principal.ts";
import type { FailureLimiter } from "../../auth/ratelimit.ts";
import type { Flash } from "../../services/user/sessions.ts";
import type { Access, Granted } from "../route.ts";
import type { PageOptions } from "./layout.ts";
import type { WebState } from "./state.ts";

/** What a page's handler is given beside its declared resources. */
export interface PageContext {
  env: Env;
  request: Request;
  url: URL;
  /** The path's parameters, decoded (`*` stays escaped, as the router leaves it). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** A POSTed form's fields (empty for GET); files of a multipart form in `files`. */
  form: URLSearchParams;
  files: Map<string, File>;
  principal: Principal | undefined;
  state: WebState;
  /** The client's address, and the failed sign-in limit shared with basic auth. */
  ip: string;
  limiter: FailureLimiter;
  /** ROOT_URL's path without its last `/`: the prefix of every link. */
  base: string;
  /** The whole page around `body`, with the site's header and the session's flash messages. */
  render(opts: PageOptions): Response;
  /** 303 to a path of this site (below `base`), with a message for the next page. */
  redirect(path: string, flash?: Flash): Response;
}

/**
 * A web page, declared like an API operation: who may see it (`access`, checked by runDeclared
 * through the web door with the same resolver and permission function as the API and git) and
 * a handler that renders it. Paths live in the route table (routes.ts), which loads a page's
 * module on its first request.
 */
export interface PageSpec<A extends Access> {
  access: A;
  /** Reachable signed out even under `[service] REQUIRE_SIGNIN_VIEW` (sign-in, sign-up, two-factor). */
  signInExempt?: true;
  /**
   * Also accepts the API's credentials (a token, basic auth), as Gitea's web does for downloads:
   * raw files, archives, release and issue attachments are fetched by scripts and package tools.
   */
  acceptsTokens?: true;
  handler(ctx: PageContext & Granted<A>): Response | Promise<Response>;
}

export type AnyPage = PageSpec<Access> & { readonly kind: "page" };

export function page<const A extends Access>(spec: PageSpec<A>): AnyPage {
  return { ...spec, kind: "page" } as unknown as AnyPage;
}
