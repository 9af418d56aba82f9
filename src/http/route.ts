import type { GenericSchema, InferOutput } from "valibot";
import type { Env } from "../services/env.ts";
import type { Principal } from "../auth/principal.ts";
import type { ScopeCategory } from "../services/access/scopes.ts";
import type { Page } from "./pagination.ts";
import type { AccessModeValue, UserRow } from "../db/schema/index.ts";
import type { Doer } from "../services/access/permission.ts";
import type { Checked, RepoAccess, WritableUnit } from "../services/access/repo-access.ts";
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

/**
 * The owner of a package registry path (`:owner`) and the package access needed there (Gitea's
 * reqPackageAccess over determineAccessMode): reading, or writing (publishing, deleting).
 */
export type PackageAccess = "read" | "write";

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
  /** `package`: the owner of `:owner` in a package registry's path and the package access needed. */
  package?: PackageAccess;
}

type True<T> = T extends true ? true : never;

/** Whether a declaration guarantees a signed-in doer. */
type NeedsDoer<A extends Access> =
  | (A["signIn"] extends true | "admin" ? true : never)
  | (A["repo"] extends infer R
      ? R extends RepoAccess
        ? True<R["doer"]> | (R["write"] extends WritableUnit ? true : never) | True<R["admin"]> | True<R["owner"]>
        : never
      : never)
  | (A["org"] extends "member" | "owner" ? true : never)
  | (A["user"] extends { selfOrAdmin: true } ? true : never)
  | (A["package"] extends "write" ? true : never);

/** The declared repository access, as the brand of the contexts checked for it. */
type CheckedFor<A extends Access> = Checked<A["repo"] & RepoAccess>;

/**
 * What the runner hands a handler beyond its input: the resolved resources and the doer. The
 * repository (and the issue or pull request in it) comes branded with the declared access
 * (services/access/repo-access.ts), which is what services that change data ask for.
 */
export type Granted<A extends Access> = { doer: [NeedsDoer<A>] extends [never] ? Doer | undefined : Doer } & (A["repo"] extends RepoAccess
  ? { repo: RepoContext & CheckedFor<A> }
  : unknown) &
  (A["issue"] extends true ? { issue: IssueContext & CheckedFor<A> } : unknown) &
  (A["pull"] extends true ? { pull: PullContext & CheckedFor<A> } : unknown) &
  (A["org"] extends OrgAccess ? { org: UserRow } : unknown) &
  (A["user"] extends UserAccess ? { user: UserRow } : unknown) &
  (A["package"] extends PackageAccess ? { packageOwner: UserRow; packageMode: AccessModeValue } : unknown);

/**
 * A response with a status other than 200 or with headers; a handler may also return a bare body.
 * The status and body are type parameters so a handler's replies can be checked against the
 * responses its operation declares (see HandlerResult).
 */
export class Reply<S extends number = number, B = undefined> {
  constructor(
    readonly status: S,
    readonly body?: B,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** An operation's declared responses: the body schema of each status, `null` for an empty body. */
export type Responses = Record<number, GenericSchema | null>;

/** The body a declared status carries: its schema's output, nothing for `null`. */
type BodyOf<R extends Responses, S extends keyof R> = R[S] extends GenericSchema ? InferOutput<R[S]> : undefined;

/**
 * What a handler may return, derived from its declared responses: a Reply of a declared status
 * with that status's body, the bare body of a declared 200, and, for an operation that streams
 * (`streams: true`, downloads), a Response of its own. Anything else fails to compile, so the
 * JSON a handler sends is the shape the API document promises.
 */
export type HandlerResult<R extends Responses, St extends boolean = false> = R extends unknown // one per alternative, when `responses` is chosen by a condition
  ? | { [S in keyof R & number]: Reply<S, BodyOf<R, S>> }[keyof R & number]
    | (200 extends keyof R ? BodyOf<R, 200> : never)
    | (St extends true ? Response : never)
  : never;

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
  list<T>(items: T[], total: number, page: Page): Reply<200, T[]>;
}

type Out<S> = S extends GenericSchema ? InferOutput<S> : undefined;

export interface OperationSpec<
  PS extends GenericSchema | undefined = undefined,
  QS extends GenericSchema | undefined = undefined,
  BS extends GenericSchema | undefined = undefined,
  A extends Access = Access,
  R extends Responses = Responses,
  St extends boolean = false,
> {
  method: Method;
  /** Path below /api/v1, in the router's syntax (http/router.ts): `/users/:username/tokens`. */
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
   * Gitea's names for path parameters the router knows under another name: the router needs one name
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
  /**
   * The body is plain text (`text/plain`, as Gitea's `/markdown/raw` takes it): read as it comes,
   * not parsed as JSON, and validated by `body` (a string schema).
   */
  bodyText?: true;
  /**
   * The 200 answer is this media type instead of JSON (Gitea's markup operations answer
   * `text/html`): the handler's string body is sent as it is.
   */
  produces?: "text/html";
  /** Response schemas by status, for the API document and the handler's result type; `null` for an empty body. */
  responses: R;
  /**
   * The handler answers with a streamed Response of its own (raw files, archives), which the
   * runner passes through; the document shows the declared responses as they are.
   */
  streams?: St;
  handler(
    ctx: OpContext<Out<PS>, Out<QS>, Out<BS>> & Granted<A>,
  ): NoInfer<HandlerResult<R, St>> | Promise<NoInfer<HandlerResult<R, St>>>;
}

// The registry holds specs of differing schema types; handlers are only called with validated input,
// and what they return was checked against their responses where they were declared (operation()).
export type AnyOperation = Omit<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  OperationSpec<any, any, any, Access, Responses, boolean>,
  "handler"
> & {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handler(ctx: any): unknown;
};

/** Declares an operation; the spec's schemas and access declaration type the handler's context. */
export function operation<
  PS extends GenericSchema | undefined = undefined,
  QS extends GenericSchema | undefined = undefined,
  BS extends GenericSchema | undefined = undefined,
  const A extends Access = Access,
  const R extends Responses = Responses,
  const St extends boolean = false,
>(spec: OperationSpec<PS, QS, BS, A, R, St>): AnyOperation {
  return spec as AnyOperation;
}

export const reply = {
  ok: <B>(body: B, headers?: Record<string, string>) => new Reply(200, body, headers),
  created: <B>(body: B) => new Reply(201, body),
  noContent: () => new Reply(204, undefined),
};

/** The categories an access declaration needs (none for public operations). */
export function scopeCategories(access: Access): ScopeCategory[] {
  const { scope } = access;
  if (scope === "public") return [];
  return typeof scope === "string" ? [scope] : [...scope];
}
