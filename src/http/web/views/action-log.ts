/**
 * A job's log rows as HTML without scripts: runners log what the job printed, colour codes and
 * all. Colours and bold become classes (the stylesheet has the 16 terminal colours for light and
 * dark), every other escape sequence is dropped, every character of the text is escaped.
 */
import { html, type Html } from "../../../lib/html.ts";

/** SGR state: a foreground and background of the 16 colours (0–15), bold, faint, italic, underline. */
interface Style {
  fg?: number;
  bg?: number;
  bold?: boolean;
  faint?: boolean;
  italic?: boolean;
  underline?: boolean;
}

/** CSI sequences (`ESC [ … final`), OSC sequences (`ESC ] … BEL|ESC \`), and any other escape. */
const ESCAPES = /\x1b\[([0-9;:?<=>]*)([\x20-\x2f]*[\x40-\x7e])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;

/** Control characters other than tab that a terminal would not print. */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

function applySgr(style: Style, params: string): Style {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  let s = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) s = {};
    else if (c === 1) s.bold = true;
    else if (c === 2) s.faint = true;
    else if (c === 3) s.italic = true;
    else if (c === 4) s.underline = true;
    else if (c === 22) s.bold = s.faint = false;
    else if (c === 23) s.italic = false;
    else if (c === 24) s.underline = false;
    else if (c >= 30 && c <= 37) s.fg = c - 30;
    else if (c >= 90 && c <= 97) s.fg = c - 90 + 8;
    else if (c === 39) s.fg = undefined;
    else if (c >= 40 && c <= 47) s.bg = c - 40;
    else if (c >= 100 && c <= 107) s.bg = c - 100 + 8;
    else if (c === 49) s.bg = undefined;
    else if (c === 38 || c === 48) {
      // 256 colours (`38;5;n`) map onto the 16 when they are among them; true colour is dropped.
      const mode = codes[i + 1];
      if (mode === 5) {
        const n = codes[i + 2] ?? 0;
        if (n < 16) s[c === 38 ? "fg" : "bg"] = n;
        i += 2;
      } else if (mode === 2) i += 4;
    }
  }
  return s;
}

function classesOf(s: Style): string {
  const out: string[] = [];
  if (s.fg !== undefined) out.push(`ansi-fg-${s.fg}`);
  if (s.bg !== undefined) out.push(`ansi-bg-${s.bg}`);
  if (s.bold) out.push("ansi-bold");
  if (s.faint) out.push("ansi-faint");
  if (s.italic) out.push("ansi-italic");
  if (s.underline) out.push("ansi-underline");
  return out.join(" ");
}

/**
 * One log row as HTML: a carriage return keeps what was printed after it (a progress bar's last
 * state, as a terminal shows it), colours are spans with classes, text is escaped.
 */
export function ansiToHtml(content: string): Html {
  const cr = content.lastIndexOf("\r", content.length - 2);
  const line = cr >= 0 ? content.slice(cr + 1) : content;
  const parts: Html[] = [];
  let style: Style = {};
  let at = 0;
  const push = (text: string) => {
    const clean = text.replace(CONTROLS, "");
    if (!clean) return;
    const cls = classesOf(style);
    parts.push(cls ? html`<span class="${cls}">${clean}</span>` : html`${clean}`);
  };
  for (const m of line.matchAll(ESCAPES)) {
    push(line.slice(at, m.index));
    at = m.index + m[0].length;
    if (m[2] === "m") style = applySgr(style, m[1] ?? "");
  }
  push(line.slice(at));
  return html`${parts}`;
}

/** The text of a row without any escape sequence (for titles and tests). */
export function stripAnsi(content: string): string {
  return content.replace(ESCAPES, "").replace(CONTROLS, "");
}

/**
 * Workflow commands a runner echoes that Gitea's log view turns into structure: `::group::name`
 * and `##[group]name` start a fold, `::endgroup::` / `##[endgroup]` end it. Without scripts a fold
 * is a nested <details>.
 */
export function groupMarker(content: string): { kind: "start"; title: string } | { kind: "end" } | undefined {
  const text = stripAnsi(content);
  const start = /^(?:::group::|##\[group\])(.*)$/.exec(text);
  if (start) return { kind: "start", title: start[1]!.trim() };
  if (/^(?:::endgroup::|##\[endgroup\])/.test(text)) return { kind: "end" };
  return undefined;
}
