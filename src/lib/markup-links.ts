/**
 * How rendered markup resolves the links it contains, as Gitea's modules/markup does
 * (render_link.go, util.URLJoin): a link with a scheme is left alone, a relative one is joined to
 * the current directory under a base, and one starting with `/` is joined to the base itself (a
 * README's `/docs/x.md` means the repository's docs, not the site's). Pure string work.
 */
import { cleanPath } from "./path.ts";

/** `https:`, `mailto:`, `ssh+git:`: a link that names its own scheme (Gitea's fullURLPattern, any case). */
export function isFullUrl(link: string): boolean {
  return /^[a-zA-Z][-+.\w]*:/.test(link);
}

/** A link that is neither empty, nor full, nor rooted, nor only a query or a fragment. */
export function isRelativePath(link: string): boolean {
  return link !== "" && !isFullUrl(link) && !/^[/?#]/.test(link);
}


/**
 * Gitea's util.URLJoin: `elems` joined and cleaned like a path, then resolved against `base` as a
 * directory (`/a/b` + `c` is `/a/b/c`; `..` may climb out of it). The query and fragment of the
 * last element are kept.
 */
export function urlJoin(base: string, ...elems: string[]): string {
  const last = elems.length ? elems[elems.length - 1]! : "";
  const cut = last.search(/[?#]/);
  const tail = cut >= 0 ? last.slice(cut) : "";
  const parts = cut >= 0 ? [...elems.slice(0, -1), last.slice(0, cut)] : elems;
  const cleaned = cleanPath(parts.filter((p) => p !== "").join("/"));
  const joined = cleaned === "." ? "" : cleaned;
  const dir = base.endsWith("/") ? base : `${base}/`;
  // Resolve as URLs do, against a stand-in origin when the base is a path.
  const absolute = isFullUrl(dir);
  const url = new URL(joined.replace(/^\/+/, "") + tail, absolute ? dir : `http://h${dir.startsWith("/") ? "" : "/"}${dir}`);
  if (absolute) return url.href;
  const path = url.pathname + url.search + url.hash;
  return dir.startsWith("/") ? path : path.slice(1);
}

/**
 * Gitea's resolveLinkRelative: `link` as seen from directory `cur` under `base`. A rooted link
 * already under a deep enough base (`/owner/repo/src/...` written out in full, as old Gitea
 * needed) is kept as written.
 */
export function resolveLinkRelative(base: string, cur: string, link: string): string {
  if (isFullUrl(link) || link.startsWith("//")) return link;
  let out: string;
  if (link.startsWith("/")) {
    out = link.startsWith(base) && base.split("/").length - 1 >= 4 ? link : urlJoin(base, "./", link);
  } else {
    out = urlJoin(base, "./", cur, link);
  }
  return out.endsWith("/") && out.length > 1 ? out.slice(0, -1) : out;
}

/** What a link points at, which picks its base: a page, a file's bytes for display, the raw file, or the site root. */
export type LinkType = "default" | "media" | "raw" | "root";

/**
 * Gitea's ParseRenderedLink: a link may name its type itself as `/:media/...`, `/:raw/...` or
 * `/:root/...`; otherwise it has the type the renderer prefers for it.
 */
export function parseLinkType(link: string, preferred: LinkType): { type: LinkType; link: string } {
  const m = /^\/:(media|raw|root)\//.exec(link);
  if (!m) return { type: preferred, link };
  return { type: m[1] as LinkType, link: link.slice(m[0].length) };
}

/** A path made absolute on the site's origin (`https://host:port`); full URLs and other links stay. */
export function absoluteOn(origin: string, link: string): string {
  return link.startsWith("/") && !link.startsWith("//") ? origin + link : link;
}
