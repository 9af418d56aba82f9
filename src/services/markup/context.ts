import type { Doer } from "../access/permission.ts";
import type { RepoContext } from "../repo/lookup.ts";

/**
 * How a text is rendered, which is where it lives (Gitea's render contexts, models/renderhelper):
 *
 * - `markdown`: plain GitHub-flavoured Markdown and nothing else (Gitea's raw mode): no mentions,
 *   issue or commit links; relative links are joined to `baseLink` when one is given.
 * - `document`: a file of a repository (a README, `docs/x.md`): relative links open files under
 *   `/{owner}/{repo}/src/{refPath}/{treePath}`, images load from `/{owner}/{repo}/media/...`;
 *   `owner/repo#12` references are linked, a bare `#12` is not (a file is not about one issue).
 * - `gfm`: the markup API's legacy name for `document`.
 * - `comment`: an issue, a pull request, a comment or a release note: a line break is a `<br>`,
 *   `#12` and `!12` name the repository's own issues and pull requests, links are relative to the
 *   repository (`/{owner}/{repo}/...`, under `refPath` when given).
 * - `wiki`: a wiki page: links open wiki pages (`/{owner}/{repo}/wiki/...`), images come from
 *   `/{owner}/{repo}/wiki/raw/...`, and `#12` is linked as in a comment.
 *
 * Every mode but `markdown` links `@name` to an account the viewer may see, and in a repository
 * a commit id (7 to 64 hex digits) of a commit that exists there, and `owner/repo@sha`.
 */
export type MarkupMode = "markdown" | "document" | "gfm" | "comment" | "wiki";

/**
 * Where a text is rendered and for whom. Every link the renderer makes on its own (a mention, an
 * issue, a commit) is to something that exists and that `viewer` may see; the rest of the text is
 * the author's, sanitised.
 */
export interface MarkupContext {
  mode: MarkupMode;
  /** Who reads the result (undefined: anonymous). References are linked only to what they may see. */
  viewer?: Doer;
  /**
   * The repository the text belongs to, as `viewer` sees it (services/repo/lookup.ts
   * `resolveRepo(env, viewer, ...)`): relative links resolve in it, `#12` and commit ids are
   * looked up in it with `repo.perm`.
   */
  repo?: RepoContext;
  /**
   * Only the names of a repository that is not looked up (the markup API's `Context` path naming a
   * repository the caller cannot see): links resolve under it, nothing in it is linked.
   */
  repoPath?: { owner: string; name: string };
  /**
   * The revision files are shown at, as it stands in URLs: `branch/main`, `tag/v1.0`,
   * `commit/{sha}` (each part path-escaped). A `document` without it uses the repository's
   * default branch.
   */
  refPath?: string;
  /** The directory of the rendered file inside the repository (`docs`, `""` at the top), unescaped. */
  treePath?: string;
  /** `markdown` mode: the page or URL relative links are joined to; without it they stay as written. */
  baseLink?: string;
  /** Links come out absolute (`https://host/sub/...`, from ROOT_URL), as the markup API answers. */
  absoluteLinks?: boolean;
}
