/** Whether `buf` holds `sig` (bytes, or a latin-1 string) at `at`. */
function startsWith(buf: Uint8Array, sig: number[] | string, at = 0): boolean {
  const bytes = typeof sig === "string" ? [...sig].map((c) => c.charCodeAt(0)) : sig;
  if (buf.length < at + bytes.length) return false;
  return bytes.every((b, i) => buf[at + i] === b);
}

const HTML_TAGS = ["!DOCTYPE HTML", "HTML", "HEAD", "SCRIPT", "IFRAME", "H1", "DIV", "FONT", "TABLE", "A", "STYLE", "TITLE", "B", "BODY", "BR", "P", "!--"];
const isWs = (b: number | undefined) => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;

/** Go's http.DetectContentType (the WHATWG sniffing subset it implements), on at most 512 bytes. */
export function detectContentType(all: Uint8Array): string {
  const data = all.subarray(0, 512);
  let ws = 0;
  while (ws < data.length && isWs(data[ws])) ws++;
  const upper = Buffer.from(data.subarray(ws, ws + 16)).toString("latin1").toUpperCase();
  for (const tag of HTML_TAGS) {
    const term = data[ws + tag.length + 1];
    if (upper.startsWith(`<${tag}`) && (term === 0x20 || term === 0x3e)) {
      return "text/html; charset=utf-8";
    }
  }
  if (startsWith(data, "<?xml", ws)) return "text/xml; charset=utf-8";
  const exact: [number[] | string, string][] = [
    ["%PDF-", "application/pdf"],
    ["%!PS-Adobe-", "application/postscript"],
    [[0xfe, 0xff], "text/plain; charset=utf-16be"],
    [[0xff, 0xfe], "text/plain; charset=utf-16le"],
    [[0xef, 0xbb, 0xbf], "text/plain; charset=utf-8"],
    [[0, 0, 1, 0], "image/x-icon"],
    [[0, 0, 2, 0], "image/x-icon"],
    ["BM", "image/bmp"],
    ["GIF87a", "image/gif"],
    ["GIF89a", "image/gif"],
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "image/png"],
    [[0xff, 0xd8, 0xff], "image/jpeg"],
    ["ID3", "audio/mpeg"],
    [[0x4f, 0x67, 0x67, 0x53, 0x00], "application/ogg"],
    [[0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6], "audio/midi"],
    [[0x1a, 0x45, 0xdf, 0xa3], "video/webm"],
    ["OTTO", "font/otf"],
    ["ttcf", "font/collection"],
    ["wOFF", "font/woff"],
    ["wOF2", "font/woff2"],
    [[0x1f, 0x8b, 0x08], "application/x-gzip"],
    [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
    [[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00], "application/x-rar-compressed"],
    [[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00], "application/x-rar-compressed"],
    [[0x00, 0x61, 0x73, 0x6d], "application/wasm"],
  ];
  for (const [sig, type] of exact) if (startsWith(data, sig)) return type;
  if (startsWith(data, "RIFF") && startsWith(data, "WEBPVP", 8)) return "image/webp";
  if (startsWith(data, "RIFF") && startsWith(data, "AVI ", 8)) return "video/avi";
  if (startsWith(data, "RIFF") && startsWith(data, "WAVE", 8)) return "audio/wave";
  if (startsWith(data, "FORM") && startsWith(data, "AIFF", 8)) return "audio/aiff";
  if (data.length >= 12 && startsWith(data, "ftyp", 4)) {
    const boxSize = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0;
    if (boxSize % 4 === 0 && boxSize <= data.length) {
      for (let i = 8; i + 3 <= boxSize; i += 4) {
        if (i === 12) continue;
        if (startsWith(data, "mp4", i)) return "video/mp4";
      }
    }
  }
  if (startsWith(data, [0, 1, 0, 0, 0])) return "font/ttf";
  const binary = data.some((b) => b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f));
  return binary ? "application/octet-stream" : "text/plain; charset=utf-8";
}

/** How much of a file Gitea looks at to sniff its type and charset. */
export const SNIFF_BYTES = 1024;

const SVG_COMMENT = /<!--[\s\S]*?-->/g;
const SVG_TAG = /^\s*(?:(<!DOCTYPE\s+svg([\s:]+[\s\S]*?>|>))\s*)*<svg\b/i;
const SVG_IN_XML = /^<\?xml\b[\s\S]*?\?>\s*(?:(<!DOCTYPE\s+svg([\s:]+[\s\S]*?>|>))\s*)*<svg\b/i;

/** Gitea's typesniffer.DetectContentType: Go's sniffing plus SVG and the MP3 false positive. */
export function sniffType(buf: Uint8Array): string {
  if (buf.length === 0) return "text/unknown";
  let ct = detectContentType(buf);
  const text = Buffer.from(buf.subarray(0, SNIFF_BYTES)).toString("utf8").replace(SVG_COMMENT, "");
  const byHtml = ct.includes("text/plain") || ct.includes("text/html");
  if ((byHtml && SVG_TAG.test(text)) || (ct.includes("text/xml") && SVG_IN_XML.test(text))) ct = "image/svg+xml";
  if (ct.startsWith("audio/") && startsWith(buf, "ID3")) {
    const again = detectContentType(buf.subarray(3));
    if (again.startsWith("text/")) ct = again;
  }
  return ct;
}

/** Whether the start of a blob is UTF-8, allowing a character cut at the end of the sample. */
function isUtf8Prefix(buf: Uint8Array): boolean {
  for (let cut = 0; cut <= 3 && cut <= buf.length; cut++) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(buf.subarray(0, buf.length - cut));
      return true;
    } catch {
      if (buf.length < SNIFF_BYTES) return false; // the whole blob: nothing was cut
    }
  }
  return false;
}

/** Gitea's charset.DetectEncoding, reduced to what matters for a header: UTF-8, UTF-16, else Latin-1. */
function detectCharset(buf: Uint8Array): string {
  if (startsWith(buf, [0xfe, 0xff])) return "utf-16be";
  if (startsWith(buf, [0xff, 0xfe])) return "utf-16le";
  return isUtf8Prefix(buf) ? "utf-8" : "iso-8859-1";
}

const BROWSABLE = /^(image\/|video\/|audio\/|application\/pdf)/;

/** The Content-Type to serve user content with: never HTML; text is text/plain with a charset. */
export function userContentType(head: Uint8Array): string {
  const sniffed = sniffType(head);
  if (BROWSABLE.test(sniffed)) return sniffed;
  if (sniffed.includes("text/")) return `text/plain; charset=${detectCharset(head)}`;
  return "application/octet-stream";
}
