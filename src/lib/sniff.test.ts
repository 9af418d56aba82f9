import { describe, expect, test } from "bun:test";
import { detectContentType, sniffType, userContentType } from "./sniff.ts";

const bytes = (...b: number[]) => new Uint8Array(b);
const text = (s: string) => new TextEncoder().encode(s);

describe("detectContentType (Go's http.DetectContentType)", () => {
  test("signatures", () => {
    expect(detectContentType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(detectContentType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(detectContentType(text("GIF89a..."))).toBe("image/gif");
    expect(detectContentType(text("%PDF-1.7"))).toBe("application/pdf");
  });

  test("HTML and XML after leading white space; plain text otherwise", () => {
    expect(detectContentType(text("  <!DOCTYPE HTML><p>"))).toBe("text/html; charset=utf-8");
    expect(detectContentType(text("<?xml version='1.0'?>"))).toBe("text/xml; charset=utf-8");
    expect(detectContentType(text("just words\n"))).toBe("text/plain; charset=utf-8");
  });

  test("binary that matches nothing is application/octet-stream", () => {
    expect(detectContentType(bytes(0, 1, 2, 3, 0xfe))).toBe("application/octet-stream");
  });
});

describe("Gitea's typesniffer and the type user content is served with", () => {
  test("SVG is recognised in text and in XML, comments aside", () => {
    expect(sniffType(text("<!-- c --><svg xmlns='http://www.w3.org/2000/svg'/>"))).toBe("image/svg+xml");
    expect(sniffType(text("<?xml version='1.0'?>\n<svg/>"))).toBe("image/svg+xml");
    expect(sniffType(new Uint8Array())).toBe("text/unknown");
  });

  test("never HTML: text is served as text/plain with its charset, media as itself, the rest as octets", () => {
    expect(userContentType(text("<html><script>x</script>"))).toBe("text/plain; charset=utf-8");
    expect(userContentType(bytes(0xff, 0xfe, 0x41, 0x00))).toBe("text/plain; charset=utf-16le");
    expect(userContentType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe("image/png");
    expect(userContentType(text("%PDF-1.4"))).toBe("application/pdf");
    expect(userContentType(bytes(0, 1, 2, 3))).toBe("application/octet-stream");
  });
});
