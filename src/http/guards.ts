import type { Principal } from "../auth/principal.ts";
import type { UserRow } from "../db/schema/index.ts";
import { ownerInReach } from "../services/access/permission.ts";
import { Forbidden, PublicOnlyRefused, Unauthorized } from "../lib/errors.ts";

/** Endpoints about the doer's own account refuse public-only tokens outright (Gitea's rejectPublicOnly). */
export function rejectPublicOnly(principal: Principal | undefined): void {
  if (principal?.scope?.publicOnly) throw new Forbidden("this endpoint is not available for public-only tokens");
}

/** Gitea's reqBasicOrRevProxyAuth: token management needs a password login (or a token sent as one). */
export function requireBasicAuth(principal: Principal | undefined): void {
  if (!principal || (principal.method !== "basic" && principal.method !== "reverse_proxy")) {
    throw new Unauthorized("auth required");
  }
}

/**
 * Gitea's checkTokenPublicOnly on the /user group: a public-only token acts only for an account
 * that is itself public.
 */
export function requirePublicAccountForPublicOnly(principal: Principal | undefined, account: UserRow): void {
  if (!ownerInReach(principal?.user, account)) throw new PublicOnlyRefused("user");
}
