/**
 * The Markdown parser, set up as Gitea's goldmark is (modules/markup/markdown): CommonMark with
 * GitHub's tables, strikethrough, task lists and autolinks, raw HTML allowed (the sanitizer
 * decides what of it stays), no typographic replacements. One instance serves every rendering;
 * what differs per rendering travels in markdown-it's `env`.
 */
import markdownIt, { type MarkdownIt, type Token } from "markdown-it";
import taskLists from "markdown-it-task-lists";
import { escapeHtml } from "./escape.ts";

/** Per rendering: how fenced code is highlighted and where the finished blocks wait (see `FENCE_OPEN`). */
export interface FenceState {
  secret: string;
  blocks: string[];
  /** HTML of `code` highlighted as the language `name` names, or undefined when it names none. */
  highlight?: (name: string, code: string) => string | undefined;
}

/**
 * A fenced code block leaves the renderer as a placeholder, `\uE000{secret}{n}\uE001`, and comes
 * back after sanitising: highlight.js's output is escaped text in spans already, and the sanitizer
 * then neither strips its classes nor spends time walking thousands of spans. Without the secret no
 * author can write a placeholder.
 */
export const FENCE_OPEN = "\uE000";
export const FENCE_CLOSE = "\uE001";

let instance: MarkdownIt | undefined;

export function engine(): MarkdownIt {
  return (instance ??= build());
}

function build(): MarkdownIt {
  const md = markdownIt("default", { html: true, linkify: true, typographer: false });
  // Autolinks as Gitea's linkify makes them: http(s) and ftp URLs, e-mail addresses, and `www.`
  // hosts (as http), but no other bare host name (linkify-it's fuzzy links, which also cost time).
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: true, fuzzyIP: false });
  md.linkify.add("www.", {
    validate: (text, pos) => wwwTail(text.slice(pos)),
    normalize: (match) => {
      match.url = `http://${match.url}`;
    },
  });
  md.use(taskLists);
  md.renderer.rules.fence = (tokens, idx, _options, env) => renderFence(md, tokens[idx]!, env as { hearth: FenceState });
  return md;
}

// Gitea's wwwURLRegxp after its `www.`: a host with a top-level domain, then an optional path.
const WWW_TAIL = /^[-a-zA-Z0-9@:%._+~#=]{2,256}\.[a-z]{2,6}(?:[/?#][^\s<>"]*)?/;

/** How much of `rest` (the text after `www.`) is the link: trailing punctuation and an unmatched `)` are the sentence's. */
function wwwTail(rest: string): number {
  let link = WWW_TAIL.exec(rest)?.[0] ?? "";
  for (;;) {
    const trimmed = link.replace(/[.,:;!?'"]+$/, "");
    const opens = trimmed.split("(").length;
    const closes = trimmed.split(")").length;
    const cut = trimmed.endsWith(")") && closes > opens ? trimmed.slice(0, -1) : trimmed;
    if (cut === link) return link.length;
    link = cut;
  }
}

function renderFence(md: MarkdownIt, token: Token, env: { hearth: FenceState }): string {
  const state = env.hearth;
  const info = token.info ? md.utils.unescapeAll(token.info).trim() : "";
  const name = info.split(/\s+/)[0] ?? "";
  const highlighted = name ? state.highlight?.(name, token.content) : undefined;
  const langClass = name.replace(/[^\w+#.-]/g, "");
  const classes = [highlighted !== undefined ? "hljs" : "", langClass ? `language-${langClass}` : ""].filter(Boolean).join(" ");
  const code = highlighted ?? escapeHtml(token.content);
  state.blocks.push(`<pre class="code-block"><code${classes ? ` class="${escapeHtml(classes)}"` : ""}>${code}</code></pre>\n`);
  return `${FENCE_OPEN}${state.secret}${state.blocks.length - 1}${FENCE_CLOSE}\n`;
}

/** The rendered blocks put back in place of their placeholders. */
export function restoreFences(html: string, state: FenceState): string {
  if (state.blocks.length === 0) return html;
  const placeholder = new RegExp(`${FENCE_OPEN}${state.secret}(\\d+)${FENCE_CLOSE}\\n?`, "g");
  return html.replace(placeholder, (_, n: string) => state.blocks[Number(n)] ?? "");
}
