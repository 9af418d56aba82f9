import type { Env } from "../../../../services/env.ts";
import { resolveRepo } from "../../../../services/repo/lookup.ts";
import { goPathEscape, pathEscapeSegments } from "../../../../convert/content.ts";
import { escapeHtml } from "../../../../lib/html.ts";

/**
 * Gitea's goGet: `GET /{owner}/{repo}[/...]?go-get=1` answers the `go-import` and `go-source`
 * meta tags whatever the path below the repository, whether or not the repository exists or the
 * caller may see it, and before any sign-in is asked: `go get` reads them without credentials
 * (it ignores .netrc there), then clones with them. hearth takes the repository's default branch
 * for the source links only when anyone may see the repository, so a private one's branch never
 * shows; otherwise the site's default branch name is used, as Gitea does for a missing repository.
 */
export function goGet(env: Env, request: Request): Response | undefined {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.search.length < 9 || url.searchParams.get("go-get") !== "1") return undefined;
  const parts = url.pathname.split("/");
  const base = new URL(env.settings.server.rootUrl);
  const sub = base.pathname.replace(/\/$/, "");
  // The path below ROOT_URL's own: /{owner}/{repo}/...
  const below = sub && url.pathname.startsWith(`${sub}/`) ? url.pathname.slice(sub.length).split("/") : parts;
  if (below.length < 3) return undefined;
  let owner: string;
  let repo: string;
  try {
    owner = decodeURIComponent(below[1]!);
    repo = decodeURIComponent(below[2]!);
  } catch {
    return undefined;
  }
  const trimmed = repo.replace(/\.git$/, "");
  if (owner === "" || trimmed === "") {
    return new Response("<!doctype html>\n<html>\n\t<body>\n\t\tinvalid import path\n\t</body>\n</html>\n", {
      status: 400,
      headers: { "Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff" },
    });
  }
  let branch = env.settings.repository.defaultBranch;
  try {
    const rc = resolveRepo(env, undefined, owner, trimmed);
    if (rc.repo.defaultBranch) branch = rc.repo.defaultBranch;
  } catch {
    // Missing, or not for everyone's eyes: the site's default branch.
  }
  const root = env.settings.server.rootUrl;
  const importPath = `${base.host}${sub}/${owner}/${trimmed}`;
  const cloneUrl = `${root}${goPathEscape(owner)}/${goPathEscape(trimmed)}.git`;
  const prefix = `${root}${goPathEscape(owner)}/${goPathEscape(trimmed)}/src/branch/${pathEscapeSegments(branch)}`;
  const goImport = `${importPath} git ${cloneUrl}`;
  const goSource = `${importPath} _ ${prefix}{/dir} ${prefix}{/dir}/{file}#L{line}`;
  const insecure = base.protocol === "http:" ? "--insecure " : "";
  const body = `<!doctype html>
<html>
\t<head>
\t\t<meta name="go-import" content="${escapeHtml(goImport)}">
\t\t<meta name="go-source" content="${escapeHtml(goSource)}">
\t</head>
\t<body>
\t\t${escapeHtml(`go get ${insecure}${importPath}`)}
\t</body>
</html>`;
  return new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
}
