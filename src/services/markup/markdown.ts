/**
 * Markdown to safe HTML, as Gitea 1.25 renders it (goldmark with GitHub's extensions, then its
 * post-processing and sanitizer): the one renderer of READMEs, files, issues, comments, releases
 * and wiki pages, for the web pages and the markup API alike.
 *
 * 1. markdown-it parses the text (engine.ts); the tokens are brought to Gitea's output and the
 *    texts that may hold references are gathered (transform.ts);
 * 2. the mentions, issue references and commit ids in them are looked up for the viewer in one
 *    batch (lookups.ts) and those that exist become links;
 * 3. the tokens are rendered, fenced code highlighted by its fence's language (never guessed);
 * 4. the HTML is sanitised (sanitize.ts), which also resolves every link for the context (links.ts).
 *
 * This module carries markdown-it and sanitize-html: callers import it when they first render
 * (`await import(...)`), so a server that has not rendered anything has not loaded them.
 */
import type { Env } from "../env.ts";
import type { MarkupContext } from "./context.ts";
import { engine, restoreFences, type FenceState } from "./engine.ts";
import { linkResolver } from "./links.ts";
import { Lru } from "../../lib/lru.ts";
import { lookUpRefs } from "./lookups.ts";
import { sanitizeRendered } from "./sanitize.ts";
import { linkReferences, prepareTokens, scanReferences } from "./transform.ts";

export type { MarkupContext, MarkupMode } from "./context.ts";

/**
 * Highlighted code blocks by language and text: the same README or comment shown again does not
 * highlight its blocks again (highlighting is most of a rendering's cost). Up to about 4 MB.
 */
const highlighted = new Lru<string>(1024, 4 * 1024 * 1024);

/** `source` rendered for `ctx` (see MarkupContext for what each mode links and how). */
export async function renderMarkdown(env: Env, source: string, ctx: MarkupContext): Promise<string> {
  const md = engine();
  const secret = newSecret();
  const links = linkResolver(env.settings, ctx);
  const mdEnv: { hearth?: FenceState } = {};
  const tokens = md.parse(source, mdEnv);

  const references = ctx.mode !== "markdown";
  const { texts, fencedLanguages } = prepareTokens(md, source, tokens, secret, references);
  if (references && texts.length > 0) {
    // `#12` needs to know its repository: a comment or a wiki page does, a file is not about one issue.
    const shortIssues = (ctx.mode === "comment" || ctx.mode === "wiki") && ctx.repo !== undefined;
    const scanned = scanReferences(texts, { shortIssues, commits: ctx.repo !== undefined });
    if (scanned.spans.size > 0) linkReferences(md, scanned, await lookUpRefs(env, ctx, links, scanned.query), secret);
  }

  const hljs = fencedLanguages ? await import("./hljs.ts") : undefined;
  const fences: FenceState = {
    secret,
    blocks: [],
    highlight: hljs
      ? (name, code) => {
          const language = hljs.languageByName(name);
          if (!language) return undefined;
          const key = `${language}\0${code}`;
          let html = highlighted.get(key);
          if (html === undefined) highlighted.set(key, (html = hljs.highlightAs(language, code)), key.length + html.length);
          return html;
        }
      : undefined,
  };
  mdEnv.hearth = fences;
  // A comment's line breaks are kept (Gitea's EnableHardLineBreakInComments); documents flow.
  const html = md.renderer.render(tokens, { ...md.options, breaks: ctx.mode === "comment" }, mdEnv);
  return restoreFences(sanitizeRendered(html, { secret, links }), fences);
}

/** A fresh random marker per rendering (hex): what the renderer writes with it, no author can. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
