/**
 * A workflow's or job's `permissions:` for its GITEA_TOKEN, as Gitea reads them: `read-all`,
 * `write-all`, or a mapping of scopes (`contents`, `issues`, `pull-requests`, `packages`,
 * `actions`, `wiki`, `releases`, `projects`, Gitea's `code`) to `read`, `write` or `none`.
 * `contents` covers code and releases unless those are named themselves.
 */

export type TokenUnit = "code" | "issues" | "pulls" | "packages" | "actions" | "wiki" | "releases" | "projects";
export type TokenAccess = "none" | "read" | "write";
export type TokenPermissions = Record<TokenUnit, TokenAccess>;

const UNITS: readonly TokenUnit[] = ["code", "issues", "pulls", "packages", "actions", "wiki", "releases", "projects"];

const SCOPE_UNIT: Record<string, TokenUnit> = {
  code: "code",
  issues: "issues",
  "pull-requests": "pulls",
  packages: "packages",
  actions: "actions",
  wiki: "wiki",
  releases: "releases",
  projects: "projects",
};

const every = (access: TokenAccess): TokenPermissions => Object.fromEntries(UNITS.map((u) => [u, access])) as TokenPermissions;

const accessOf = (v: unknown): TokenAccess => (v === "write" ? "write" : v === "read" ? "read" : "none");

/** The permissions a `permissions:` value states, or undefined when it states none (absent or empty). */
export function parsePermissions(raw: unknown): TokenPermissions | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  if (typeof raw === "string") return raw === "read-all" ? every("read") : raw === "write-all" ? every("write") : every("none");
  if (typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const scopes = raw as Record<string, unknown>;
  const out = every("none");
  if ("contents" in scopes) out.code = out.releases = accessOf(scopes.contents);
  for (const [scope, value] of Object.entries(scopes)) {
    const unit = SCOPE_UNIT[scope];
    if (unit) out[unit] = accessOf(value);
  }
  return out;
}

/** Gitea's ExtractJobPermissionsFromWorkflow: the job's own permissions, else the workflow's, else none stated. */
export function jobPermissions(workflowRaw: unknown, jobRaw: unknown): TokenPermissions | undefined {
  return parsePermissions(jobRaw) ?? parsePermissions(workflowRaw);
}
