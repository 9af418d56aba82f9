import type { RegistryRoute } from "./routes.ts";

/**
 * The container registry's routes (Gitea's ContainerRoutes): at the site root, not below
 * `/api/packages/:owner/`. Image names hold `/`, so below `/v2/:owner/` one route per method
 * takes the rest (`*`) and the registry parses it. Run by registries/container-run.ts.
 */
const container = () => import("./registries/container.ts");

export const containerRoutes: readonly RegistryRoute[] = [
  { method: "GET", path: "/v2", load: container, name: "base" },
  { method: "GET", path: "/v2/token", load: container, name: "token" },
  { method: "GET", path: "/v2/_catalog", load: container, name: "catalog" },
  { method: "GET", path: "/v2/:owner/*", load: container, name: "read" },
  { method: "HEAD", path: "/v2/:owner/*", load: container, name: "read" },
  { method: "POST", path: "/v2/:owner/*", load: container, name: "write" },
  { method: "PUT", path: "/v2/:owner/*", load: container, name: "write" },
  { method: "PATCH", path: "/v2/:owner/*", load: container, name: "write" },
  { method: "DELETE", path: "/v2/:owner/*", load: container, name: "write" },
];
