import type { GenericSchema, InferOutput } from "valibot";
import type { Env } from "../services/env.ts";
import type { Principal } from "../auth/principal.ts";
import type { ScopeCategory } from "../services/access/scopes.ts";
import type { Page } from "./pagination.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Doer, RepoUnit } from "../services/access/permission.ts";
import type { RepoAccess } from "../services/access/repo-access.ts";
import type { RepoContext } from "../services/repo/lookup.ts";
import type { IssueContext } from "../services/issue/lookup.ts";
import type { PullContext } from "../services/pull/lookup.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

/** The organization of the path (`:org`) and what the doer must be of it (Gitea's orgAssignment and its guards). */
export type OrgAccess =
  /** It exists (404), and a public-only token may reach it (403); visibility is the handler's business. */
  | "exists"
  /** The doer may see it (404 otherwise, so a private organization does not leak). */
  | "visible"
  /** reqOrgMembership: a member (or a site admin); implies a doer. */
  | "member"
  /** reqOrgOwnership: an owner (or a site admin); implies a doer. */
  | "owner";

/** The account of the path (`:username`) and what the doer must be to it. */
export interface UserAccess {
  /** `user`: an individual (Gitea's 404 for an organization); `account`: a user or an organization. */
  kind: "user" | "account";
  /** The doer may see the account (404), and a public-only token may reach it (403). */
  visible?: true;
  /** Gitea's reqSelfOrAdmin: the doer is that account or a site admin (403); implies a doer. */
  selfOrAdmin?: true;
}

/**
 * Who may call an operation, declared on every route (of the API and of every other front door:
 * git's pull and push, http/git.ts) and enforced by runDeclared alone (http/door.ts, http/access.ts),
 * in Gitea's order: the token scope, then sign-in, then the resources of the
 * path, each resolved once (renamed owners and repositories redirect there) and checked by the
 * one permission function. Tests walk every declaration.
 * - `scope`: the token scope categories the operation needs, all of them (read for GET/HEAD,
 *   write otherwise, as Gitea derives it), or `"public"` for operations Gitea leaves without a
 *   scope check.
 * - `signIn`: `false` lets anonymous callers through, `true` needs a doer, `"admin"` a site admin.
 * - `repo`: the repository of `:owner/:repo` and the access needed to it (services/access/repo-access.ts).
 * - `issue` / `pull`: with `repo`, the issue or pull request of `:index` (404 when missing or its
 *   unit is not readable), resolved after the repository's checks.
 * - `org`: the organization of `:org`; `user`: the account of `:username`.
 * The handler gets what was resolved (`ctx.repo`, `ctx.org`, `ctx.user`) and `ctx.doer`, typed as
 * present whenever the declaration guarantees one. Rules that depend on more than the resource
 * (a comment's poster, a branch rule) live in the services.
 */
export interface Access {
  scope: ScopeCategory | readonly ScopeCategory[] | "public";
  signIn: boolean | "admin";
  repo?: RepoAccess;
  issue?: true;
  pull?: true;
  org?: OrgAccess;
  user?: UserAccess;
}

type True<T> = T extends true ? true : never;

/** Whether a declaration guarantees a signed-in doer. */
type NeedsDoer<A extends Access> =
  | (A["signIn"] extends true | "admin" ? true : never)
  | (A["repo"] extends infer R
      ? R extends RepoAccess
        ? True<R["doer"]> | (R["write"] extends RepoUnit ? true : never) | True<R["admin"]> | True<R["owner"]>
        : never
      : never)
  | (A["org"] extends "member" | "owner" ? true : never)
  | (A["user"] extends { selfOrAdmin: true } ? true : never);

/** What the runner hands a handler beyond its input: the resolved resources and the doer. */
export type Granted<A extends Access> = { doer: [NeedsDoer<A>] extends [never] ? Doer | undefined : Doer } & (A["repo"] extends RepoAccess
  ? { repo: RepoContext }
  : unknown) &
  (A["issue"] extends true ? { issue: IssueContext } : unknown) &
  (A["pull"] extends true ? { pull: PullContext } : unknown) &
  (A["org"] extends OrgAccess ? { org: UserRow } : unknown) &
  (A["user"] extends UserAccess ? { user: UserRow } : unknown);

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
  A extends Access = Access,
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
  access: A;
  params?: PS;
  query?: QS;
  body?: BS;
  /** For uploads read by the handler itself: the multipart/form-data field carrying the file. */
  multipartFile?: string;
  /** Response schemas by status, for the API document; `null` for an empty body. */
  responses: Record<number, GenericSchema | null>;
  handler(ctx: OpContext<Out<PS>, Out<QS>, Out<BS>> & Granted<A>): Reply | unknown | Promise<Reply | unknown>;
}

// The registry holds specs of differing schema types; handlers are only called with validated input.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = OperationSpec<any, any, any, Access>;

/** Declares an operation; the spec's schemas and access declaration type the handler's context. */
export function operation<
  PS extends GenericSchema | undefined = undefined,
  QS extends GenericSchema | undefined = undefined,
  BS extends GenericSchema | undefined = undefined,
  const A extends Access = Access,
>(spec: OperationSpec<PS, QS, BS, A>): AnyOperation {
  return spec as AnyOperation;
}

export const reply = {
  ok: (body: unknown, headers?: Record<string, string>) => new Reply(200, body, headers),
  created: (body: unknown) => new Reply(201, body),
  noContent: () => new Reply(204),
};

/** The categories an access declaration needs (none for public operations). */
export function scopeCategories(access: Access): ScopeCategory[] {
  const { scope } = access;
  if (scope === "public") return [];
  return typeof scope === "string" ? [scope] : [...scope];
}
