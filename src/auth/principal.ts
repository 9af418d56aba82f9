import type { UserRow } from "../db/schema/index.ts";
import type { Doer } from "../services/access/permission.ts";
import type { ScopeSet } from "../services/access/scopes.ts";

/** `session`: the web interface's sign-in cookie, honoured by web pages only. */
export type AuthMethod = "token" | "basic" | "reverse_proxy" | "session";

/** The authenticated doer of a request and how it proved who it is. */
export interface Principal {
  /** The account, flagged `publicOnly` when the token is public-only (see auth/public-only.ts). */
  user: Doer;
  /** Gitea's AuthedMethod: a token sent as a basic password still counts as `basic`. */
  method: AuthMethod;
  /** Token scopes; undefined for password and reverse-proxy logins, which are unrestricted (`all`). */
  scope: ScopeSet | undefined;
  /** The stored scope string, for Gitea's scope error message. */
  rawScope: string;
  tokenId?: number;
  /** Set when the doer was switched with `sudo`; the original admin. */
  sudoBy?: UserRow;
}
