/**
 * The markup API's rendering (Gitea's routers/common/markup.go RenderMarkup, behind
 * `POST /markdown`, `/markdown/raw` and `/markup`): a mode, a text, and a `Context` path naming
 * where the text lives (`/{owner}/{repo}/src/{branch|tag|commit}/{ref}/{dir}`) become a
 * MarkupContext. Gitea's API never knows the repository there and only builds links from the
 * path; hearth looks it up for the caller, so a repository the caller may read gets its issue
 * and commit links too, and one it may not stays a mere path.
 */
import type { Env } from "../env.ts";
import type { Doer } from "../access/permission.ts";
import { Invalid } from "../../lib/errors.ts";
import { resolveRepo, type RepoContext } from "../repo/lookup.ts";
import type { MarkupContext } from "./context.ts";

/** What the markup API was asked, its fields as Gitea names them. */
export interface MarkupRequest {
  text: string;
  mode: string;
  /** The URL path the text is shown under (with ROOT_URL's sub-path), or empty. */
  context: string;
  /** `file` mode: the file's path in the repository, which also picks its markup by extension. */
  filePath: string;
}

/** Gitea's `[markdown] FILE_EXTENSIONS` default: the files `file` mode renders as Markdown. */
const MARKDOWN_EXTENSIONS = [".md", ".markdown", ".mdown", ".mkd", ".livemd"];

/**
 * A MarkdownOption or MarkupOption body as Gitea binds it: Go matches JSON keys to its fields
 * without regard to case (`Text` or `text`); `Wiki` asks for the wiki mode, as it did before
 * `mode: "wiki"` existed.
 */
export function markupRequestOf(body: Record<string, unknown>, fixed?: { filePath?: false }): MarkupRequest {
  const field = (name: string, type: "string" | "boolean"): unknown => {
    const key = name in body ? name : Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
    const value = key === undefined ? undefined : body[key];
    if (value !== undefined && value !== null && typeof value !== type) throw new Invalid(`[${name}]: Invalid type`);
    return value ?? undefined;
  };
  const wiki = field("Wiki", "boolean") === true;
  return {
    text: (field("Text", "string") as string | undefined) ?? "",
    mode: wiki ? "wiki" : ((field("Mode", "string") as string | undefined) ?? ""),
    context: (field("Context", "string") as string | undefined) ?? "",
    filePath: fixed?.filePath === false ? "" : ((field("FilePath", "string") as string | undefined) ?? ""),
  };
}

/** The request rendered as `text/html` for `viewer`, or Gitea's 422 for a mode or file it cannot render. */
export async function renderMarkupRequest(env: Env, viewer: Doer | undefined, req: MarkupRequest): Promise<string> {
  const ctx = markupContextOf(env, viewer, req);
  // Gitea reads at most [ui] MAX_DISPLAY_FILE_SIZE of a text to render.
  const limit = env.settings.ui.maxDisplayFileSize;
  const text = limit > 0 && req.text.length > limit ? req.text.slice(0, limit) : req.text;
  const { renderMarkdown } = await import("./markdown.ts");
  return renderMarkdown(env, text, ctx);
}

export function markupContextOf(env: Env, viewer: Doer | undefined, req: MarkupRequest): MarkupContext {
  const root = new URL(env.settings.server.rootUrl);
  if (req.mode === "" || req.mode === "markdown") {
    // Raw Markdown: relative links join the Context path, or the site's address without one.
    return { mode: "markdown", viewer, baseLink: req.context || root.origin, absoluteLinks: true };
  }
  if (!["gfm", "comment", "wiki", "file"].includes(req.mode)) throw new Invalid(`Unknown mode: ${req.mode}`);
  if (req.mode === "file" && !MARKDOWN_EXTENSIONS.some((ext) => req.filePath.toLowerCase().endsWith(ext))) {
    throw new Invalid(`unsupported file to render: ${JSON.stringify(req.filePath)}`);
  }

  const appSub = root.pathname.replace(/\/+$/, "");
  const path = req.context.startsWith(`${appSub}/`) ? req.context.slice(appSub.length + 1) : req.context;
  let owner: string | undefined;
  let name: string | undefined;
  let refPath: string | undefined;
  let treePath: string | undefined;
  const fields = splitN(path, "/", 5);
  if (fields.length === 5 && fields[2] === "src" && ["branch", "commit", "tag"].includes(fields[3]!)) {
    [owner, name] = fields;
    // `doc/CHANGE.md` shown under `.../src/branch/feat/x/doc`: the directory is cut off the ref.
    const dir = dirname(req.filePath);
    treePath = dir === "." ? "" : dir;
    const ref = fields.slice(3).join("/");
    refPath = treePath && ref.endsWith(`/${treePath}`) ? ref.slice(0, -treePath.length - 1) : ref;
  } else {
    const two = splitN(path, "/", 3);
    if (two.length === 2) [owner, name] = two;
  }

  const mode = req.mode === "comment" ? "comment" : req.mode === "wiki" ? "wiki" : "document";
  const ctx: MarkupContext = { mode, viewer, absoluteLinks: true };
  if (owner && name) {
    owner = unescapePath(owner);
    name = unescapePath(name);
    const repo = visibleRepo(env, viewer, owner, name);
    if (repo) ctx.repo = repo;
    else ctx.repoPath = { owner, name };
    // A comment's links are relative to the repository itself, not to a revision (Gitea passes
    // none); a file's without a revision in the Context are at the default branch.
    if (mode === "document") {
      if (refPath !== undefined) ctx.refPath = refPath;
      ctx.treePath = treePath ?? "";
    }
  }
  return ctx;
}

function visibleRepo(env: Env, viewer: Doer | undefined, owner: string, name: string): RepoContext | undefined {
  try {
    return resolveRepo(env, viewer, owner, name);
  } catch {
    return undefined; // missing, moved, or not the caller's to see: all look the same
  }
}

function unescapePath(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Go's strings.SplitN: at most `n` parts, the last holding the rest. */
function splitN(s: string, sep: string, n: number): string[] {
  const parts = s.split(sep);
  return parts.length <= n ? parts : [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

/** Go's path.Dir. */
function dirname(p: string): string {
  const i = p.lastIndexOf("/");
  if (i < 0) return ".";
  return p.slice(0, i).replace(/\/+$/, "") || "/";
}
