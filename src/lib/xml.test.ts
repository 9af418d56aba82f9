import { describe, expect, test } from "bun:test";
import { child, children, decodeXml, escapeXmlText, parseXml, textOf, XmlSyntaxError } from "./xml.ts";

describe("parseXml", () => {
  test("elements, attributes, entities, CDATA, comments, prefixes", () => {
    const root = parseXml(
      `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- head --><!DOCTYPE p [<!ELEMENT p ANY>]>\n<m:p xmlns:m="urn:x" a='1' b="&lt;&#65;&#x42;">t&amp;<c>in</c><![CDATA[<raw>]]><?pi x?><e/></m:p>\n<!-- tail -->\n`,
    );
    expect(root.name).toBe("m:p");
    expect(root.local).toBe("p");
    expect(root.attributes).toEqual({ "xmlns:m": "urn:x", a: "1", b: "<AB" });
    expect(textOf(root)).toBe("t&<raw>");
    expect(textOf(child(root, "c"))).toBe("in");
    expect(children(root, "e")).toHaveLength(1);
    expect(textOf(child(root, "missing"))).toBe("");
  });

  test("the last of repeated elements; nesting deeper than the stack would allow is refused, not crashed", () => {
    expect(textOf(child(parseXml("<a><b>1</b><b>2</b></a>"), "b"))).toBe("2");
    expect(() => parseXml("<a>".repeat(100000) + "</a>".repeat(100000))).toThrow(XmlSyntaxError);
  });

  test.each([
    ["", "no root"],
    ["text", "no element"],
    ["<a>", "unclosed"],
    ["<a></b>", "mismatched"],
    ["<a><b></a></b>", "crossed"],
    ["<a/><b/>", "two roots"],
    ["<a x=1/>", "unquoted attribute"],
    ['<a x="1" x="2"/>', "duplicate attribute"],
    ["<a>&nbsp;</a>", "undefined entity"],
    ["<a>& b</a>", "bare ampersand"],
    ["<a>&#0;</a>", "NUL reference"],
    ["<a>\u0001</a>", "control character"],
    ["<a><!-- x </a>", "unterminated comment"],
    ["<a/><?xml version='1.0'?>", "late declaration"],
    ['<a x="<"/>', "< in an attribute"],
  ])("%j is refused (%s)", (doc) => {
    expect(() => parseXml(doc)).toThrow(XmlSyntaxError);
  });
});

describe("decodeXml", () => {
  test("UTF-8 by default, the declared encoding, byte-order marks", () => {
    expect(decodeXml(Buffer.from("<a>é</a>"))).toBe("<a>é</a>");
    expect(decodeXml(Buffer.from("<?xml version='1.0' encoding='ISO-8859-1'?><a>\xe9</a>", "latin1"))).toContain("<a>é</a>");
    expect(decodeXml(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<a/>", "utf16le")]))).toBe("<a/>");
  });

  test("invalid bytes and unknown encodings are refused", () => {
    expect(() => decodeXml(Buffer.from([0x3c, 0x61, 0xff, 0x3e]))).toThrow(XmlSyntaxError);
    expect(() => decodeXml(Buffer.from("<?xml version='1.0' encoding='klingon'?><a/>"))).toThrow(XmlSyntaxError);
  });
});

test("escapeXmlText writes what Go's xml.EscapeText writes", () => {
  expect(escapeXmlText(`a&b<c>"d'\te\nf\r`)).toBe("a&amp;b&lt;c&gt;&#34;d&#39;&#x9;e&#xA;f&#xD;");
});
