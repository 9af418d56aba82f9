/**
 * A small, strict XML reader for the documents package registries receive (a Maven pom, a
 * snapshot's maven-metadata.xml): the whole document must be well-formed — one root element,
 * matching tags, quoted and unique attributes, the five predefined entities and character
 * references only — or it is refused with an `XmlSyntaxError`, as Go's `encoding/xml` (which Gitea
 * uses) refuses it. A DOCTYPE is skipped and defines nothing. Namespaces are not resolved: an
 * element is looked up by its local name, as Go matches a field without a namespace.
 */

export interface XmlElement {
  /** The name as written, with its prefix. */
  name: string;
  /** The name without its prefix. */
  local: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`XML syntax error at offset ${offset}: ${message}`);
  }
}

const MAX_DEPTH = 512;
const NAME = /[A-Za-z_:\u00C0-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD][-.\w:\u00B7\u00C0-\u02FF\u0300-\u037D\u037F-\u1FFF\u200C-\u200D\u203F-\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]*/y;
const SPACE = /[ \t\r\n]*/y;
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
/** Characters XML 1.0 allows in a document. */
const ILLEGAL_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string, at = this.pos): never {
    throw new XmlSyntaxError(message, at);
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  expect(s: string): void {
    if (!this.startsWith(s)) this.fail(`expected ${JSON.stringify(s)}`);
    this.pos += s.length;
  }

  space(): boolean {
    SPACE.lastIndex = this.pos;
    SPACE.test(this.text);
    const moved = SPACE.lastIndex > this.pos;
    this.pos = SPACE.lastIndex;
    return moved;
  }

  name(): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.text);
    if (!m) this.fail("expected a name");
    this.pos += m[0].length;
    return m[0];
  }

  /** Up to (not including) `end`, which must come; the reader moves past it. */
  until(end: string, what: string): string {
    const at = this.text.indexOf(end, this.pos);
    if (at < 0) this.fail(`unterminated ${what}`);
    const s = this.text.slice(this.pos, at);
    this.pos = at + end.length;
    return s;
  }

  /** Text with its entity and character references replaced. */
  unescape(raw: string, start: number): string {
    if (!raw.includes("&")) return raw;
    return raw.replace(/&([^;&]*);?/g, (whole, ref: string, offset: number) => {
      if (!whole.endsWith(";")) this.fail("unterminated entity reference", start + offset);
      if (ref.startsWith("#")) {
        const hex = ref[1] === "x";
        const digits = ref.slice(hex ? 2 : 1);
        if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) this.fail(`invalid character entity &${ref};`, start + offset);
        const code = parseInt(digits, hex ? 16 : 10);
        const ch = code <= 0x10ffff ? String.fromCodePoint(code) : "";
        if (!ch || ILLEGAL_CHAR.test(ch)) this.fail(`invalid character entity &${ref};`, start + offset);
        return ch;
      }
      const value = PREDEFINED[ref];
      if (value === undefined) this.fail(`invalid character entity &${ref};`, start + offset);
      return value;
    });
  }

  /** Comments, processing instructions, whitespace (and a DOCTYPE, when allowed) outside the root. */
  misc(doctype: boolean): boolean {
    for (;;) {
      this.space();
      if (this.startsWith("<!--")) {
        this.pos += 4;
        this.until("-->", "comment");
      } else if (this.startsWith("<?")) {
        this.processingInstruction();
      } else if (doctype && this.startsWith("<!DOCTYPE")) {
        this.doctype();
        doctype = false;
      } else {
        return doctype;
      }
    }
  }

  processingInstruction(): void {
    const at = this.pos;
    this.pos += 2;
    const target = this.name();
    if (target.toLowerCase() === "xml") this.fail("an XML declaration is only allowed at the start", at);
    this.until("?>", "processing instruction");
  }

  /** Skips `<!DOCTYPE …>` with any internal subset, quoted strings and comments in it. */
  doctype(): void {
    this.pos += "<!DOCTYPE".length;
    let depth = 0;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === '"' || c === "'") {
        this.pos++;
        this.until(c, "DOCTYPE literal");
      } else if (this.startsWith("<!--")) {
        this.pos += 4;
        this.until("-->", "comment");
      } else if (c === "[") {
        depth++;
        this.pos++;
      } else if (c === "]") {
        depth--;
        this.pos++;
      } else if (c === ">" && depth <= 0) {
        this.pos++;
        return;
      } else {
        this.pos++;
      }
    }
    this.fail("unterminated DOCTYPE");
  }

  /** `<name attr="v" …` up to and including `>` or `/>`. */
  startTag(): { el: XmlElement; empty: boolean } {
    this.expect("<");
    const name = this.name();
    const attributes: Record<string, string> = {};
    for (;;) {
      const spaced = this.space();
      if (this.startsWith("/>")) {
        this.pos += 2;
        return { el: { name, local: localName(name), attributes, children: [] }, empty: true };
      }
      if (this.startsWith(">")) {
        this.pos += 1;
        return { el: { name, local: localName(name), attributes, children: [] }, empty: false };
      }
      if (!spaced) this.fail("expected whitespace before an attribute");
      const attr = this.name();
      this.space();
      this.expect("=");
      this.space();
      const quote = this.text[this.pos];
      if (quote !== '"' && quote !== "'") this.fail("unquoted or missing attribute value");
      this.pos++;
      const start = this.pos;
      const raw = this.until(quote, "attribute value");
      if (raw.includes("<")) this.fail("'<' in an attribute value", start);
      if (Object.hasOwn(attributes, attr)) this.fail(`attribute ${attr} given twice`, start);
      attributes[attr] = this.unescape(raw, start);
    }
  }

  document(): XmlElement {
    if (this.startsWith("\uFEFF")) this.pos++;
    if (this.startsWith("<?xml") && /[ \t\r\n?]/.test(this.text[this.pos + 5] ?? "")) {
      this.pos += 5;
      const decl = this.until("?>", "XML declaration");
      if (!/^\s+version\s*=\s*(["'])1\.[0-9]+\1/.test(decl)) this.fail("invalid XML declaration", 0);
    }
    this.misc(true);
    if (this.pos >= this.text.length) this.fail("no root element");
    if (!this.startsWith("<") || /[!?/]/.test(this.text[this.pos + 1] ?? "")) this.fail("expected the root element");
    const root = this.element();
    this.misc(false);
    if (this.pos < this.text.length) this.fail("content after the root element");
    return root;
  }

  /** The element at the reader, its content and its end tag (iteratively: nesting cannot overflow the stack). */
  element(): XmlElement {
    const first = this.startTag();
    if (first.empty) return first.el;
    const stack: XmlElement[] = [first.el];
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const lt = this.text.indexOf("<", this.pos);
      if (lt < 0) this.fail(`unexpected end of input inside <${top.name}>`, this.text.length);
      if (lt > this.pos) {
        const start = this.pos;
        const raw = this.text.slice(start, lt);
        if (raw.includes("]]>")) this.fail("']]>' in text", start + raw.indexOf("]]>"));
        top.children.push(this.unescape(raw, start));
        this.pos = lt;
      }
      if (this.startsWith("</")) {
        const at = this.pos;
        this.pos += 2;
        const name = this.name();
        this.space();
        this.expect(">");
        if (name !== top.name) this.fail(`element <${top.name}> closed by </${name}>`, at);
        stack.pop();
      } else if (this.startsWith("<!--")) {
        this.pos += 4;
        this.until("-->", "comment");
      } else if (this.startsWith("<![CDATA[")) {
        this.pos += 9;
        top.children.push(this.until("]]>", "CDATA section"));
      } else if (this.startsWith("<?")) {
        this.processingInstruction();
      } else if (this.startsWith("<!")) {
        this.fail("unexpected markup declaration");
      } else {
        const { el, empty } = this.startTag();
        top.children.push(el);
        if (!empty) {
          if (stack.length >= MAX_DEPTH) this.fail("elements nested too deeply");
          stack.push(el);
        }
      }
    }
    return first.el;
  }
}

/** Parses a whole XML document (text already decoded) into its root element. */
export function parseXml(text: string): XmlElement {
  const bad = ILLEGAL_CHAR.exec(text.startsWith("\uFEFF") ? text.slice(1) : text);
  if (bad) throw new XmlSyntaxError("illegal character in the document", bad.index);
  return new Reader(text).document();
}

/**
 * A document's bytes as text: by its byte-order mark, else the `encoding` of its XML declaration
 * (any WHATWG label: ISO-8859-1, windows-1252, UTF-16…), else UTF-8; bytes that are not valid
 * in that encoding are refused.
 */
export function decodeXml(bytes: Uint8Array): string {
  let label = "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) label = "utf-16le";
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = "utf-16be";
  else if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    const head = new TextDecoder("latin1").decode(bytes.subarray(0, 256));
    const declared = /^<\?xml[ \t\r\n][^>]*?encoding\s*=\s*(["'])([A-Za-z][-\w.:]*)\1/.exec(head);
    if (declared) label = declared[2]!;
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label as ConstructorParameters<typeof TextDecoder>[0], { fatal: true });
  } catch {
    throw new XmlSyntaxError(`unsupported encoding ${JSON.stringify(label)}`, 0);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new XmlSyntaxError(`the document is not valid ${label}`, 0);
  }
}

/** The child elements of `el` with local name `local`, in document order. */
export function children(el: XmlElement | undefined, local: string): XmlElement[] {
  return el ? el.children.filter((c): c is XmlElement => typeof c !== "string" && c.local === local) : [];
}

/** The last child element named `local` (Go keeps the last of repeated elements), if any. */
export function child(el: XmlElement | undefined, local: string): XmlElement | undefined {
  return children(el, local).at(-1);
}

/** The text directly inside `el` (text of nested elements excluded), trimmed; "" for no element. */
export function textOf(el: XmlElement | undefined): string {
  return el ? el.children.filter((c): c is string => typeof c === "string").join("").trim() : "";
}

/** Text escaped as Go's xml.EscapeText writes it (so generated documents match Gitea's byte for byte). */
export function escapeXmlText(s: string): string {
  return s.replace(/[&<>"'\t\n\r]/g, (c) => XML_ESCAPES[c]!);
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&#34;",
  "'": "&#39;",
  "\t": "&#x9;",
  "\n": "&#xA;",
  "\r": "&#xD;",
};
