import type { Env } from "../services/env.ts";
import type { Principal } from "../auth/principal.ts";
import type { ScopeLevel } from "../services/access/scopes.ts";
import { AccountMoved, type Redirect } from "../lib/errors.ts";
import type { Access, Granted } from "./route.ts";
import { enforceAccess, resolveResources, type Resources } from "./access.ts";

/**
 * A front door: one protocol spoken on the HTTP port (the /api/v1 API, git smart HTTP; next the
 * package registries, OCI /v2/, the Actions runner's Connect API, web pages). Every door declares
 * access with the same `Access` and has it checked by the same resolver and permission function
 * (runDeclared); what differs between doors is only what a door brings here.
 */
export interface Door {
  readonly env: Env;
  /**
   * Who is calling, by this door's credentials (API tokens and basic auth, git's basic with its
   * two-factor rule, next registry tokens, runner tokens, the web session): the principal, none for
   * an anonymous caller, or a typed error the door's `errorResponse` words (a 401 challenge...).
   */
  authenticate(call: Call): Promise<Principal | undefined>;
  /** Where a renamed repository or account now lives, in this door's URLs (answered by `errorResponse`). */
  redirect(moved: Moved, call: Call): Redirect;
  /** How any error of the call (refusal, redirect, typed error, crash) becomes this door's response. */
  errorResponse(err: unknown, call: Call): Response;
  /**
   * For a door whose protocol orders the checks its own way (git: renamed and archived repositories
   * before credentials count, the token scope last): it calls `checks.enforce` and `checks.resolve`
   * in that order and adds its written-once rules, never a permission check of its own. Without
   * it: scope and sign-in, then the resources.
   */
  resolve?(call: Call, checks: DeclaredChecks): Resources;
}

/** One request going through a door: what the door needs to answer it, filled as it goes. */
export interface Call {
  readonly request: Request;
  readonly url: URL;
  /** The client's address, for the sign-in failure limit. */
  readonly ip: string;
  readonly access: Access;
  /** The authenticated caller, set as soon as known (a 500's text shows only to admins). */
  principal?: Principal;
  /** Headers every response of the call carries, error or not (the API's query-token warning). */
  readonly headers: Record<string, string>;
}

export function newCall(request: Request, ip: string, access: Access): Call {
  return { request, url: new URL(request.url), ip, access, headers: {} };
}

/** A renamed repository (301, or 307 when its owner was renamed) or account (307), with its current names. */
export type Moved =
  | { kind: "repo"; from: { owner: string; repo: string }; to: { owner: string; repo: string }; permanent: boolean }
  | { kind: "account"; oldName: string; newName: string };

/** The declaration's checks, for a door that orders them itself. */
export interface DeclaredChecks {
  /** The token scope, then sign-in. */
  enforce(): void;
  /** The declared resources, as `principal` sees them (default: the caller). */
  resolve(principal?: Principal): Resources;
}

export interface Declaration<A extends Access, I extends { params?: unknown }> {
  access: A;
  /** The scope level needed: the API derives it from the method; a git push needs write on any method. */
  level: ScopeLevel;
  /** The request's input, validated once the scope and sign-in passed (a 422 comes after a 403). */
  decode(call: Call): I;
}

/**
 * Runs one declared request through a door: credentials, the declared access (scope, sign-in, the
 * resources of the path, each resolved once and checked by the one permission function), then the
 * handler, which reads the request body itself (buffered or streamed) and answers any Response
 * (JSON, a stream of git objects, a file). Every error, from any step, is answered by the door.
 */
export async function runDeclared<A extends Access, I extends { params?: unknown }>(
  door: Door,
  call: Call,
  declared: Declaration<A, I>,
  handler: (granted: Granted<A>, input: I) => Promise<Response>,
): Promise<Response> {
  try {
    call.principal = await door.authenticate(call);
    const enforce = () => enforceAccess(declared.access, declared.level, call.principal);
    if (!door.resolve) enforce();
    const input = declared.decode(call);
    const params = input.params as Record<string, unknown> | undefined;
    const checks: DeclaredChecks = {
      enforce,
      resolve: (principal = call.principal) =>
        resolveResources(door.env, declared.access, principal, params, (moved) => door.redirect(moved, call)),
    };
    const granted = door.resolve ? door.resolve(call, checks) : checks.resolve();
    return await handler(granted as Granted<A>, input);
  } catch (err) {
    // Accounts are renamed under any route naming one (services throw, the door says where to go).
    if (err instanceof AccountMoved) {
      return door.errorResponse(door.redirect({ kind: "account", oldName: err.oldName, newName: err.newName }, call), call);
    }
    return door.errorResponse(err, call);
  }
}
