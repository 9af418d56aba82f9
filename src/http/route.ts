import type { GenericSchema, InferOutput } from "valibot";
import type { Env } from "../services/env.ts";
import type { Principal } from "../auth/principal.ts";
import type { ScopeCategory } from "../services/access/scopes.ts";
import type { Page } from "./pagination.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

/**
 * Who may call an operation, declared on every route (a test walks them all):
 * - `scope`: the token scope categories the operation needs, all of them (read for GET/HEAD,
 *   write otherwise, as Gitea derives it), or `"public"` for operations Gitea leaves without a
 *   scope check.
 * - `signIn`: `false` lets anonymous callers through, `true` needs a doer, `"admin"` a site admin.
 * Checks that depend on the resource (self-or-admin, basic-auth-only) run in the handler, through
 * http/guards.ts, after the resource is found: that is Gitea's order of errors.
 */
export interface Access {
  scope: ScopeCategory | ScopeCategory[] | "public";
  signIn: boolean | "admin";
}

/** A response with a status other than 200 or with headers; a handler may also return a bare body. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface OpContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The authenticated doer, if any (always set when `signIn` is true). */
  principal: Principal | undefined;
  env: Env;
  request: Request;
  url: URL;
  /** Gitea's page/limit from the query, defaulted and capped. */
  page(): Page;
  /** A 200 list reply with X-Total-Count and Link headers. */
  list<T>(items: T[], total: number, page: Page): Reply;
}

type Out<S> = S extends GenericSchema ? InferOutput<S> : undefined;

export interface OperationSpec<
  PS extends GenericSchema | undefined = undefined,
  QS extends GenericSchema | undefined = undefined,
  BS extends GenericSchema | undefined = undefined,
> {
  method: Method;
  /** Path below /api/v1, Elysia syntax: `/users/:username/tokens`. */
  path: string;
  /** Gitea's operationId, so generated clients and api-coverage line up. */
  operationId: string;
  /**
   * For a path ending in `/*` (a name that may contain `/`: branch, tag, file path), the name
   * Gitea's document gives that last parameter (`branch`, `tag`, `filepath`...).
   */
  wildcard?: string;
  /**
   * The path's last parameter carries a `.{name}` suffix, as Gitea's `/pulls/{index}.{diffType}`.
   * The router cannot tell `7.diff` from `7`, so this operation shares its route with the one
   * declared without the suffix and is chosen when the segment ends in `.value` for one of
   * `values`; the handler sees the parameter without the suffix and `name` set to the value.
   */
  suffix?: { name: string; values: readonly string[] };
  /**
   * Gitea's names for path parameters the router knows under another name: Elysia needs one name
   * per path position (`/commits/:ref/statuses` and `/commits/{sha}/pull` share it), the document
   * shows Gitea's.
   */
  docNames?: Record<string, string>;
  tag: string;
  summary: string;
  access: Access;
  params?: PS;
  query?: QS;
  body?: BS;
  /** For uploads read by the handler itself: the multipart/form-data field carrying the file. */
  multipartFile?: string;
  /** Response schemas by status, for the API document; `null` for an empty body. */
  responses: Record<number, GenericSchema | null>;
  handler(ctx: OpContext<Out<PS>, Out<QS>, Out<BS>>): Reply | unknown | Promise<Reply | unknown>;
}

// The registry holds specs of differing schema types; handlers are only called with validated input.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = OperationSpec<any, any, any>;

/** Declares an operation; the spec's schemas type the handler's context. */
export function operation<
  PS extends GenericSchema | undefined = undefined,
  QS extends GenericSchema | undefined = undefined,
  BS extends GenericSchema | undefined = undefined,
>(spec: OperationSpec<PS, QS, BS>): AnyOperation {
  return spec as AnyOperation;
}

export const reply = {
  ok: (body: unknown, headers?: Record<string, string>) => new Reply(200, body, headers),
  created: (body: unknown) => new Reply(201, body),
  noContent: () => new Reply(204),
};

/** The categories an access declaration needs (none for public operations). */
export function scopeCategories(access: Access): ScopeCategory[] {
  if (access.scope === "public") return [];
  return Array.isArray(access.scope) ? access.scope : [access.scope];
}
