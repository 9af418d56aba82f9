import type { Env } from "../../services/env.ts";
import type { Principal } from "../../auth/principal.ts";
import type { PackageType } from "../../config/packages.ts";
import type { Access, Granted } from "../route.ts";
import type { RegistryAuthenticator, RegistryErrorFormat } from "../doors/packages.ts";

/** What a registry handler is given beside the owner and access mode its declaration resolved. */
export interface RegistryContext {
  env: Env;
  request: Request;
  url: URL;
  /** The path's parameters below the registry's root (`*` left escaped, as the router leaves it). */
  params: Record<string, string>;
  principal: Principal | undefined;
}

/**
 * A registry endpoint, declared like an API operation: the package access it needs (`package:
 * "read" | "write"` on the owner of the path, and the `package` token scope), the registry's
 * error format, and a handler answering in the registry's protocol. Paths live in the route table
 * (routes.ts), which loads a registry's module on its first request.
 */
export interface RegistrySpec<A extends Access> {
  type: PackageType;
  access: A;
  errors?: RegistryErrorFormat;
  /**
   * A registry's own credentials, tried before the door's (Basic, tokens): the principal a
   * request proves by them, undefined when it does not carry them (the door's then count), or a
   * typed error (a 401 the registry's error format words). The door still applies the account
   * checks. Chef uses it for its signed headers.
   */
  authenticate?: RegistryAuthenticator;
  handler(ctx: RegistryContext & Granted<A>): Response | Promise<Response>;
}

export type AnyRegistryEndpoint = RegistrySpec<Access> & { readonly kind: "registry" };

export function endpoint<const A extends Access>(spec: RegistrySpec<A>): AnyRegistryEndpoint {
  return { ...spec, kind: "registry" } as unknown as AnyRegistryEndpoint;
}

/** The declared access of a registry's reads and writes. */
export const readPackages = { scope: "package", signIn: false, package: "read" } as const satisfies Access;
export const writePackages = { scope: "package", signIn: false, package: "write" } as const satisfies Access;
