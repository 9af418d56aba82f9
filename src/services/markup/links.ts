import type { Settings } from "../../config/settings.ts";
import { absoluteOn, isFullUrl, parseLinkType, resolveLinkRelative, type LinkType } from "../../lib/markup-links.ts";
import type { MarkupContext } from "./context.ts";

/**
 * Where the links of one rendering point (Gitea's RenderHelper.ResolveLink per render context):
 * built once from the context, then asked for every link the author wrote and every link the
 * renderer makes.
 */
export interface LinkResolver {
  /** A link the author wrote, of the type the element asks for (an image's source is `media`). */
  resolve(link: string, preferred: "default" | "media"): string;
  /** A page of the site the renderer links to itself: `alice`, `alice/tools/issues/3`. */
  app(path: string): string;
  /** An anchor in the rendered text: `#intro` is `#user-content-intro`, as heading ids are. */
  anchor(link: string): string;
}

const USER_CONTENT = "user-content-";

export function userContentId(id: string): string {
  return id.startsWith(USER_CONTENT) ? id : USER_CONTENT + id;
}

export function linkResolver(settings: Settings, ctx: MarkupContext): LinkResolver {
  const root = new URL(settings.server.rootUrl);
  const appSub = root.pathname.replace(/\/+$/, "");
  const finish = (link: string) => (ctx.absoluteLinks ? absoluteOn(root.origin, link) : link);
  const names = ctx.repo ? { owner: ctx.repo.owner.name, name: ctx.repo.repo.name } : ctx.repoPath;
  const repoLink = names ? `${appSub}/${encodeURIComponent(names.owner)}/${encodeURIComponent(names.name)}` : undefined;
  const treePath = ctx.treePath ?? "";
  const refPath =
    ctx.refPath ?? (ctx.mode === "document" || ctx.mode === "gfm" ? defaultRef(ctx) : undefined);

  /** The base and current directory a link of `type` resolves in, or undefined to leave it as written. */
  const baseOf = (type: LinkType): [base: string, cur: string] | undefined => {
    if (type === "root") return [`${appSub}/`, ""];
    if (!repoLink) return ctx.baseLink ? [ctx.baseLink, ""] : undefined;
    switch (ctx.mode) {
      case "markdown":
        return ctx.baseLink ? [ctx.baseLink, ""] : undefined;
      case "comment":
        return [repoLink, refPath ?? ""];
      case "wiki":
        return [type === "media" ? `${repoLink}/wiki/raw` : `${repoLink}/wiki`, ""];
      default: {
        const kind = type === "media" ? "media" : type === "raw" ? "raw" : "src";
        return [refPath ? `${repoLink}/${kind}/${refPath}` : `${repoLink}/${kind}`, treePath];
      }
    }
  };

  return {
    resolve(link, preferred) {
      if (link.startsWith("#")) return this.anchor(link);
      if (isFullUrl(link) || link.startsWith("//")) return link;
      const parsed = parseLinkType(link, preferred);
      const base = baseOf(parsed.type);
      if (!base) return link;
      return finish(resolveLinkRelative(base[0], base[1], parsed.link));
    },
    app(path) {
      return finish(`${appSub}/${path}`);
    },
    anchor(link) {
      return `#${userContentId(link.slice(1))}`;
    },
  };
}

/** `branch/{default}` of the context's repository, path-escaped. */
function defaultRef(ctx: MarkupContext): string | undefined {
  const branch = ctx.repo?.repo.defaultBranch;
  return branch ? `branch/${branch.split("/").map(encodeURIComponent).join("/")}` : undefined;
}
