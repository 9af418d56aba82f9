/**
 * What rendered markup may contain, as Gitea's default sanitizer allows it
 * (modules/markup/sanitizer_default.go over bluemonday's UGC policy): structure, text formatting,
 * tables, lists, images, links, `<details>`, disabled checkboxes, `<video>`, and little else.
 * Scripts, styles, frames, forms, event handlers and `javascript:`, `vbscript:` and `data:` URLs
 * never pass; `style` keeps only `color` and `background-color`; `class` only what Gitea lets
 * authors write (one short highlighter class on a `<span>`, an org-mode state on an `<li>`) and the
 * classes the renderer itself marked with the rendering's secret; ids get Gitea's `user-content-`
 * prefix so they cannot clash with the page's own; every link gets `rel="nofollow"`.
 */
import sanitizeHtml from "sanitize-html";
import type { LinkResolver } from "./links.ts";
import { userContentId } from "./links.ts";
import { isRelativePath } from "../../lib/markup-links.ts";

/** Schemes no URL in rendered markup may have: they run code or smuggle content. */
const BLOCKED_SCHEMES = new Set(["javascript", "vbscript", "data"]);

/**
 * sanitize-html wants a list of allowed schemes and asks it with `indexOf`; Gitea allows every
 * scheme but the blocked ones (`ssh:`, `irc:`, `obsidian:` links are fine). This list answers
 * `indexOf` that way.
 */
const ALL_BUT_BLOCKED = Object.assign([] as string[], {
  indexOf: (scheme: string) => (BLOCKED_SCHEMES.has(String(scheme).toLowerCase()) ? -1 : 0),
});

/** Whether a URL would run as one of the blocked schemes, however it is spelt (browsers drop controls and spaces). */
export function isUnsafeUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  const cleaned = value.replace(/<!--[\s\S]*?-->/g, "").replace(/[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]+/g, "");
  const m = /^([a-zA-Z][a-zA-Z0-9.+-]*):/.exec(cleaned);
  return m !== null && BLOCKED_SCHEMES.has(m[1]!.toLowerCase());
}

// bluemonday's UGC elements and Gitea's additions (generalSafeElements, svg, checkboxes, video).
const TAGS = [
  "a", "abbr", "acronym", "article", "aside", "b", "bdi", "bdo", "blockquote", "br", "caption", "center", "cite",
  "code", "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1",
  "h2", "h3", "h4", "h5", "h6", "hgroup", "hr", "i", "img", "input", "ins", "kbd", "label", "li", "mark", "meter",
  "ol", "p", "path", "pre", "progress", "q", "rp", "rt", "ruby", "s", "samp", "section", "small", "span", "strike",
  "strong", "sub", "summary", "sup", "svg", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "tt", "u",
  "ul", "var", "video", "wbr",
];

// Gitea's generalSafeAttrs (from html-pipeline), allowed on every element above.
const SAFE_ATTRS = [
  "abbr", "accept", "accept-charset", "accesskey", "action", "align", "alt", "aria-describedby", "aria-hidden",
  "aria-label", "aria-labelledby", "axis", "border", "cellpadding", "cellspacing", "char", "charoff", "charset",
  "checked", "class", "clear", "cols", "colspan", "color", "compact", "coords", "datetime", "dir", "disabled",
  "enctype", "for", "frame", "headers", "height", "hreflang", "hspace", "id", "ismap", "label", "lang", "maxlength",
  "media", "method", "multiple", "name", "nohref", "noshade", "nowrap", "open", "prompt", "readonly", "rel", "rev",
  "rows", "rowspan", "rules", "scope", "selected", "shape", "size", "span", "start", "summary", "tabindex", "target",
  "title", "type", "usemap", "valign", "value", "vspace", "width", "itemprop", "itemscope", "itemtype",
];

const COLOR = [/^#[0-9a-fA-F]{3,8}$/, /^(?:rgb|hsl)a?\([\d\s.,%a-z/+-]*\)$/i, /^[a-zA-Z]+$/];
const COLORS = { color: COLOR, "background-color": COLOR };

// sanitize-html 2.18 knows `allowedEmptyAttributes`; its types (2.16) do not yet.
const OPTIONS: sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] } = {
  allowedTags: TAGS,
  allowedAttributes: {
    "*": SAFE_ATTRS,
    a: ["href"],
    img: ["src", "loading"],
    video: ["src", "autoplay", "controls", "muted", "loop", "playsinline"],
    blockquote: ["cite"],
    q: ["cite"],
    del: ["cite"],
    ins: ["cite"],
    input: ["data-source-position"],
    svg: ["viewbox"],
    path: ["d", "fill-rule"],
    ...Object.fromEntries(["div", "span", "p", "tr", "th", "td"].map((tag) => [tag, ["style"]])),
  },
  allowedStyles: { div: COLORS, span: COLORS, p: COLORS, tr: COLORS, th: COLORS, td: COLORS },
  allowedSchemes: ALL_BUT_BLOCKED,
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: true,
  // Boolean attributes keep Gitea's spelling, `disabled=""`.
  allowedEmptyAttributes: ["alt", "checked", "disabled", "open", "nowrap", "itemscope", "autoplay", "controls", "muted", "loop", "playsinline"],
  disallowedTagsMode: "discard",
};

/**
 * What the markdown renderer tells the sanitizer about its own output: the secret that marks the
 * classes it set, and where the links of this rendering point.
 */
export interface RenderedHooks {
  secret: string;
  links: LinkResolver;
}

/**
 * How the renderer marked the links and images it wrote (an attribute the sanitizer reads and
 * drops): `link` and `media` were written by the author in Markdown and resolve as Gitea resolves
 * them (a rooted `/x` under the repository), `final` links the renderer made itself. Anything
 * unmarked is the author's raw HTML, where only relative paths are resolved.
 */
export const LINK_MARK = "data-hearth-md";
export type LinkMark = "link" | "media" | "final";

/** HTML from anywhere made safe under Gitea's default policy, links left where they point. */
export function sanitize(html: string): string {
  return sanitizeHtml(html, { ...OPTIONS, transformTags: { "*": (tag, attribs) => transform(tag, attribs) } });
}

/** The markdown renderer's HTML made safe, with its links resolved and its own classes kept. */
export function sanitizeRendered(html: string, hooks: RenderedHooks): string {
  return sanitizeHtml(html, { ...OPTIONS, transformTags: { "*": (tag, attribs) => transform(tag, attribs, hooks) } });
}

function transform(tagName: string, attribs: sanitizeHtml.Attributes, hooks?: RenderedHooks): sanitizeHtml.Tag {
  const mark = attribs[LINK_MARK] as LinkMark | undefined;
  delete attribs[LINK_MARK];

  if (attribs.class !== undefined) {
    const kept = keptClasses(tagName, attribs.class, hooks?.secret);
    if (kept) attribs.class = kept;
    else delete attribs.class;
  }
  for (const name of ["id", "name"]) {
    if (attribs[name]) attribs[name] = userContentId(attribs[name]!);
  }
  // A checkbox is the only input Gitea shows; anything else is dropped with its attributes.
  if (tagName === "input" && (attribs.type ?? "").toLowerCase() !== "checkbox") {
    return { tagName: "hearth-dropped", attribs: {} };
  }

  if (tagName === "a" && attribs.href !== undefined) {
    attribs.href = resolved(attribs.href, mark, "default", hooks);
  }
  if ((tagName === "img" || tagName === "video") && attribs.src !== undefined) {
    attribs.src = resolved(attribs.src, mark, "media", hooks);
  }
  for (const name of ["href", "src", "cite"]) {
    if (attribs[name] !== undefined && isUnsafeUrl(attribs[name]!)) delete attribs[name];
  }
  if (tagName === "a") {
    if (attribs.href !== undefined) attribs.rel = attribs.target === "_blank" ? "nofollow noopener" : "nofollow";
    else delete attribs.rel;
  }
  return { tagName, attribs };
}

/** A URL attribute as the rendering resolves it (the unsafe ones are dropped after, whatever became of them). */
function resolved(value: string, mark: LinkMark | undefined, type: "default" | "media", hooks?: RenderedHooks): string {
  if (isUnsafeUrl(value)) return value;
  if (value.startsWith("#")) return hooks ? hooks.links.anchor(value) : `#${userContentId(value.slice(1))}`;
  if (!hooks || mark === "final") return value;
  if (mark === "link" || mark === "media") return hooks.links.resolve(value, mark === "media" ? "media" : type);
  return isRelativePath(value) ? hooks.links.resolve(value, type) : value;
}

/**
 * The classes an element keeps: the renderer's own (marked `{secret}:name`), and what Gitea lets an
 * author write: one class of up to two word characters on a `<span>` (a highlighter's), an
 * org-mode list state on an `<li>`.
 */
function keptClasses(tagName: string, value: string, secret: string | undefined): string | undefined {
  const ours: string[] = [];
  const theirs: string[] = [];
  for (const c of value.split(/\s+/)) {
    if (!c) continue;
    if (secret && c.startsWith(`${secret}:`)) ours.push(c.slice(secret.length + 1));
    else theirs.push(c);
  }
  const authored = theirs.join(" ");
  const allowed =
    authored !== "" &&
    ((tagName === "span" && /^\w{1,2}$/.test(authored)) || (tagName === "li" && /^(?:unchecked|checked|indeterminate)$/.test(authored)));
  if (allowed) ours.push(authored);
  return ours.length ? ours.join(" ") : undefined;
}
