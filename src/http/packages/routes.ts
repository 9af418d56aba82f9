/**
 * Every package registry endpoint: method, path below `/api/packages/:owner/` (Gitea's layout,
 * routers/api/packages/api.go), and the module declaring it (`endpoint({ type, access, handler })`
 * under the export `name`), imported on its first request.
 */
export interface RegistryRoute {
  method: "GET" | "HEAD" | "PUT" | "POST" | "DELETE" | "PATCH";
  path: string;
  load: () => Promise<Record<string, unknown>>;
  name: string;
}

const generic = () => import("./registries/generic.ts");
const pypi = () => import("./registries/pypi.ts");
const maven = () => import("./registries/maven.ts");
const npm = () => import("./registries/npm.ts");
const cargo = () => import("./registries/cargo.ts");
const conda = () => import("./registries/conda.ts");
const chef = () => import("./registries/chef.ts");

export const registryRoutes: readonly RegistryRoute[] = [
  { method: "GET", path: "/generic/:name/:version/:file", load: generic, name: "download" },
  { method: "HEAD", path: "/generic/:name/:version/:file", load: generic, name: "download" },
  { method: "PUT", path: "/generic/:name/:version/:file", load: generic, name: "upload" },
  { method: "DELETE", path: "/generic/:name/:version/:file", load: generic, name: "deleteFile" },
  { method: "DELETE", path: "/generic/:name/:version", load: generic, name: "deleteVersion" },
  { method: "GET", path: "/maven/*", load: maven, name: "download" },
  { method: "HEAD", path: "/maven/*", load: maven, name: "download" },
  { method: "PUT", path: "/maven/*", load: maven, name: "upload" },
  { method: "POST", path: "/pypi", load: pypi, name: "upload" },
  { method: "GET", path: "/pypi/simple/:id", load: pypi, name: "simple" },
  { method: "GET", path: "/pypi/files/:id/:version/:filename", load: pypi, name: "download" },
  { method: "GET", path: "/npm/-/whoami", load: npm, name: "whoami" },
  { method: "GET", path: "/npm/-/v1/search", load: npm, name: "search" },
  { method: "GET", path: "/npm/-/package/*", load: npm, name: "listTags" },
  { method: "PUT", path: "/npm/-/package/*", load: npm, name: "addTag" },
  { method: "DELETE", path: "/npm/-/package/*", load: npm, name: "deleteTag" },
  { method: "GET", path: "/npm/*", load: npm, name: "read" },
  { method: "PUT", path: "/npm/*", load: npm, name: "write" },
  { method: "DELETE", path: "/npm/*", load: npm, name: "remove" },
  { method: "GET", path: "/cargo/config.json", load: cargo, name: "config" },
  { method: "GET", path: "/cargo/1/:package", load: cargo, name: "index" },
  { method: "GET", path: "/cargo/2/:package", load: cargo, name: "index" },
  { method: "GET", path: "/cargo/3/:c/:package", load: cargo, name: "index" },
  { method: "GET", path: "/cargo/:ab/:cd/:package", load: cargo, name: "index" },
  { method: "GET", path: "/cargo/api/v1/crates", load: cargo, name: "search" },
  { method: "PUT", path: "/cargo/api/v1/crates/new", load: cargo, name: "publish" },
  { method: "GET", path: "/cargo/api/v1/crates/:package/:version/download", load: cargo, name: "download" },
  { method: "DELETE", path: "/cargo/api/v1/crates/:package/:version/yank", load: cargo, name: "yankVersion" },
  { method: "PUT", path: "/cargo/api/v1/crates/:package/:version/unyank", load: cargo, name: "unyankVersion" },
  { method: "GET", path: "/cargo/api/v1/crates/:package/owners", load: cargo, name: "owners" },
  { method: "GET", path: "/conda/*", load: conda, name: "download" },
  { method: "HEAD", path: "/conda/*", load: conda, name: "download" },
  { method: "PUT", path: "/conda/*", load: conda, name: "upload" },
  { method: "GET", path: "/chef/api/v1/universe", load: chef, name: "universe" },
  { method: "GET", path: "/chef/api/v1/search", load: chef, name: "search" },
  { method: "GET", path: "/chef/api/v1/cookbooks", load: chef, name: "search" },
  { method: "POST", path: "/chef/api/v1/cookbooks", load: chef, name: "upload" },
  { method: "GET", path: "/chef/api/v1/cookbooks/:name", load: chef, name: "cookbook" },
  { method: "DELETE", path: "/chef/api/v1/cookbooks/:name", load: chef, name: "deletePackage" },
  { method: "GET", path: "/chef/api/v1/cookbooks/:name/versions/:version", load: chef, name: "cookbookVersionInfo" },
  { method: "DELETE", path: "/chef/api/v1/cookbooks/:name/versions/:version", load: chef, name: "deleteVersion" },
  { method: "GET", path: "/chef/api/v1/cookbooks/:name/versions/:version/download", load: chef, name: "download" },
];
