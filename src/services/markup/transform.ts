/**
 * The parsed Markdown brought to Gitea's output before it is rendered: heading ids, table
 * alignment as attributes, `<del>` for strikethrough, autolinks only where GitHub makes them,
 * images wrapped in a link to themselves, the task-list classes, and every link and image marked
 * for the sanitizer, which resolves them (sanitize.ts). Then, once the references in the text
 * were looked up (lookups.ts), the ones that exist become links. Text inside links and code is
 * never touched.
 */
import type { MarkdownIt, Token } from "markdown-it";
import { scanIssueRefs, type IssueRefSpan } from "../../lib/issue-refs.ts";
import {
  mergeSpans,
  scanCommitCrossRefs,
  scanCommitIds,
  scanMentions,
  shortSha,
  type CommitCrossSpan,
  type CommitSpan,
  type MentionSpan,
} from "../../lib/markup-refs.ts";
import { LINK_MARK, type LinkMark } from "./sanitize.ts";
import type { RefQuery, FoundRefs } from "./lookups.ts";
import { issueKey, repoKey } from "./lookups.ts";

type TokenCtor = new (type: string, tag: string, nesting: -1 | 0 | 1) => Token;

/** A text that may hold references, and the inline token whose children it is among. */
export interface TextAt {
  text: Token;
  inline: Token;
}

/** What the walk found: the texts that may hold references, and whether any fence names a language. */
export interface Prepared {
  texts: TextAt[];
  fencedLanguages: boolean;
}

/** Gitea's CleanValue: letters and digits (any script) lowercased, `_` and `-` kept, spaces as `-`. */
export function headingSlug(text: string): string {
  let out = "";
  for (const ch of text.trim()) {
    if (/[\p{L}\p{N}_-]/u.test(ch)) out += ch.toLowerCase();
    else if (/\s/u.test(ch)) out += "-";
  }
  return out;
}

/** The plain text of an inline token, as goldmark's Text() reads a heading. */
function plainText(inline: Token | undefined): string {
  let out = "";
  for (const t of inline?.children ?? []) {
    if (t.type === "text" || t.type === "code_inline") out += t.content;
    else if (t.type === "image") out += plainText(t);
    else if (t.type === "softbreak" || t.type === "hardbreak") out += "\n";
  }
  return out;
}

const mark = (token: Token, value: LinkMark) => token.attrSet(LINK_MARK, value);
const ourClass = (secret: string, ...names: string[]) => names.map((n) => `${secret}:${n}`).join(" ");

/** Autolinks GitHub makes from bare text: http(s) and ftp URLs, `www.` hosts and e-mail addresses. */
function keepsAutolink(text: string, href: string): boolean {
  return /^(?:https?|ftp):\/\//i.test(text) || /^www\./i.test(text) || (href.startsWith("mailto:") && !/^mailto:/i.test(text));
}

/**
 * The first pass, before anything is looked up. `references` says whether the text of this
 * rendering may hold mentions and references at all (every mode but plain `markdown`).
 */
export function prepareTokens(md: MarkdownIt, source: string, tokens: Token[], secret: string, references: boolean): Prepared {
  const Token = tokenCtor(md);
  const checkboxes = new TaskCheckboxes(source);
  const ids = new Set<string>();
  const texts: TextAt[] = [];
  let fencedLanguages = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    switch (t.type) {
      case "heading_open": {
        const base = `user-content-${headingSlug(plainText(tokens[i + 1])) || "heading"}`;
        let id = base;
        for (let n = 1; ids.has(id); n++) id = `${base}-${n}`;
        ids.add(id);
        t.attrSet("id", id);
        break;
      }
      case "th_open":
      case "td_open": {
        // goldmark writes a column's alignment as `align`; a style would not survive the sanitizer.
        const align = /text-align:\s*(left|right|center)/.exec(String(t.attrGet("style") ?? ""))?.[1];
        t.attrs = align ? [["align", align]] : null;
        break;
      }
      case "list_item_open":
      case "bullet_list_open":
      case "ordered_list_open": {
        const cls = t.attrGet("class");
        if (cls === "task-list-item") t.attrSet("class", ourClass(secret, "task-list-item"));
        else if (cls !== null) t.attrs = t.attrs?.filter(([name]) => name !== "class") ?? null;
        break;
      }
      case "fence":
        if (t.info.trim()) fencedLanguages = true;
        break;
      case "inline":
        if (t.children?.[0]?.type === "html_inline" && t.children[0].content.startsWith(TASK_CHECKBOX)) {
          t.children[0].content = checkboxes.render(t.children[0].content, t.map?.[0]);
        }
        if (t.children) t.children = prepareInline(Token, t, references ? texts : undefined);
        break;
    }
  }
  return { texts, fencedLanguages };
}

const TASK_CHECKBOX = '<input class="task-list-item-checkbox"';

/**
 * Gitea's task checkbox: `<input type="checkbox" disabled="" data-source-position="N">`, where N is
 * the UTF-8 byte offset of the character between the brackets in the source, so a page can tick it
 * by changing that one byte.
 */
class TaskCheckboxes {
  private lines: string[] | undefined;
  private offsets: number[] | undefined;

  constructor(private readonly source: string) {}

  render(plugin: string, line: number | undefined): string {
    const checked = plugin.includes('checked=""') ? ' checked=""' : "";
    const position = line === undefined ? undefined : this.position(line);
    return `<input type="checkbox" disabled=""${position === undefined ? "" : ` data-source-position="${position}"`}${checked}>`;
  }

  private position(line: number): number | undefined {
    if (!this.lines) {
      // markdown-it's line numbers count in its normalised text (CRLF as LF, NUL replaced).
      this.lines = this.source.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD").split("\n");
      this.offsets = [];
      let at = 0;
      for (const l of this.lines) {
        this.offsets.push(at);
        at += Buffer.byteLength(l) + 1;
      }
    }
    const text = this.lines[line];
    const box = text?.search(/\[[ xX]\]/) ?? -1;
    if (text === undefined || box < 0) return undefined;
    return this.offsets![line]! + Buffer.byteLength(text.slice(0, box)) + 1;
  }
}

const RAW_OPEN = /^<(a|code|pre)(?:\s|>|\/>)/i;
const RAW_CLOSE = /^<\/(a|code|pre)\s*>/i;

function prepareInline(Token: TokenCtor, inline: Token, texts: TextAt[] | undefined): Token[] {
  const children = inline.children ?? [];
  const out: Token[] = [];
  let inLink = 0;
  let inRaw = 0;
  for (let i = 0; i < children.length; i++) {
    const t = children[i]!;
    switch (t.type) {
      case "link_open": {
        const text = children[i + 1];
        const close = children[i + 2];
        if (t.markup === "linkify" && text?.type === "text" && close?.type === "link_close" && !keepsAutolink(text.content, String(t.attrGet("href")))) {
          // A bare host name (`example.com`) stays text, as on GitHub.
          out.push(text);
          if (texts && !inLink && !inRaw) texts.push({ text, inline });
          i += 2;
          continue;
        }
        mark(t, "link");
        inLink++;
        break;
      }
      case "link_close":
        inLink = Math.max(0, inLink - 1);
        break;
      case "html_inline":
        if (RAW_OPEN.test(t.content) && !t.content.trimEnd().endsWith("/>")) inRaw++;
        else if (RAW_CLOSE.test(t.content)) inRaw = Math.max(0, inRaw - 1);
        break;
      case "s_open":
      case "s_close":
        t.tag = "del";
        break;
      case "image": {
        mark(t, "media");
        if (!inLink) {
          // Gitea wraps an image in a link to itself, opening in a new tab.
          const open = new Token("link_open", "a", 1);
          open.attrs = [["href", String(t.attrGet("src") ?? "")], ["target", "_blank"], [LINK_MARK, "media"]];
          const title = t.attrGet("title");
          if (title !== null) open.attrPush(["title", String(title)]);
          out.push(open, t, new Token("link_close", "a", -1));
          continue;
        }
        break;
      }
      case "text":
        if (texts && !inLink && !inRaw) texts.push({ text: t, inline });
        break;
    }
    out.push(t);
  }
  return out;
}

/** A reference found in a text token, with what it names once looked up. */
type Span =
  | (MentionSpan & { kind: "mention" })
  | (IssueRefSpan & { kind: "issue" })
  | (CommitCrossSpan & { kind: "crossCommit" })
  | (CommitSpan & { kind: "commit" });

/** The references in one text, in Gitea's order of precedence where they overlap. */
function spansOf(text: string, shortIssues: boolean): Span[] {
  return mergeSpans<Span>(
    scanMentions(text).map((s) => ({ ...s, kind: "mention" as const })),
    scanIssueRefs(text, { short: shortIssues }).map((s) => ({ ...s, kind: "issue" as const })),
    scanCommitCrossRefs(text).map((s) => ({ ...s, kind: "crossCommit" as const })),
    scanCommitIds(text).map((s) => ({ ...s, kind: "commit" as const })),
  );
}

/** The references found in the texts: what to look up, and where each one stands. */
export interface Scanned {
  query: RefQuery;
  spans: Map<TextAt, Span[]>;
}

/** Every reference the texts hold, for one batch of lookups. */
export function scanReferences(texts: TextAt[], opts: { shortIssues: boolean; commits: boolean }): Scanned {
  const query: RefQuery = { mentions: new Set(), issues: new Map(), commits: new Set(), crossCommits: new Map() };
  const spans = new Map<TextAt, Span[]>();
  for (const at of texts) {
    const found = spansOf(at.text.content, opts.shortIssues);
    if (found.length === 0) continue;
    spans.set(at, found);
    for (const s of found) {
      if (s.kind === "mention") query.mentions.add(s.name.toLowerCase());
      else if (s.kind === "issue") query.issues.set(issueKey(s), { owner: s.owner, repo: s.repo, index: s.index });
      else if (s.kind === "crossCommit") query.crossCommits.set(`${repoKey(s.owner, s.repo)}@${s.sha}`, s);
      else if (opts.commits) query.commits.add(s.sha);
    }
  }
  return { query, spans };
}

/** The references that were found become links; the rest of each text stays as it was. */
export function linkReferences(md: MarkdownIt, scanned: Scanned, found: FoundRefs, secret: string): void {
  const Token = tokenCtor(md);
  const replaced = new Map<Token, Map<Token, Token[]>>();
  for (const [at, spans] of scanned.spans) {
    const t = at.text;
    const parts: Token[] = [];
    let from = 0;
    for (const s of spans) {
      const link = linkFor(s, found);
      if (!link) continue;
      if (s.start > from) parts.push(textToken(Token, t.content.slice(from, s.start)));
      const open = new Token("link_open", "a", 1);
      open.attrs = [["href", link.href], [LINK_MARK, "final"]];
      if (link.cls) open.attrPush(["class", ourClass(secret, link.cls)]);
      const inner = link.code ? new Token("code_inline", "code", 0) : new Token("text", "", 0);
      inner.content = link.text ?? t.content.slice(s.start, s.end);
      parts.push(open, inner, new Token("link_close", "a", -1));
      from = s.end;
    }
    if (parts.length === 0) continue;
    if (from < t.content.length) parts.push(textToken(Token, t.content.slice(from)));
    let inInline = replaced.get(at.inline);
    if (!inInline) replaced.set(at.inline, (inInline = new Map()));
    inInline.set(t, parts);
  }
  for (const [inline, parts] of replaced) inline.children = inline.children!.flatMap((c) => parts.get(c) ?? [c]);
}

function linkFor(s: Span, found: FoundRefs): { href: string; cls?: string; text?: string; code?: boolean } | undefined {
  switch (s.kind) {
    case "mention": {
      const href = found.users.get(s.name.toLowerCase());
      return href ? { href } : undefined;
    }
    case "issue": {
      const href = found.issues.get(issueKey(s));
      return href ? { href, cls: "ref-issue" } : undefined;
    }
    case "crossCommit": {
      const href = found.crossCommits.get(`${repoKey(s.owner, s.repo)}@${s.sha}`);
      return href ? { href, cls: "commit", text: `${s.owner}/${s.repo}@${shortSha(s.sha)}` } : undefined;
    }
    case "commit": {
      const href = found.commits.get(s.sha);
      return href ? { href, text: shortSha(s.sha), code: true } : undefined;
    }
  }
}

function textToken(Token: TokenCtor, content: string): Token {
  const t = new Token("text", "", 0);
  t.content = content;
  return t;
}

let ctor: TokenCtor | undefined;
function tokenCtor(md: MarkdownIt): TokenCtor {
  return (ctor ??= new md.core.State("", md, {}).Token as TokenCtor);
}
