import { expect, test } from "bun:test";
import { contentDisposition } from "./content-disposition.ts";

test("Gitea 1.25's form: the quoted name, then filename* percent-encoded as UTF-8", () => {
  expect(contentDisposition("attachment", "a b.tar.gz")).toBe(`attachment; filename="a b.tar.gz"; filename*=UTF-8''a%20b.tar.gz`);
  expect(contentDisposition("inline", 'say "hi"\\.txt')).toBe(`inline; filename="say \\"hi\\"\\\\.txt"; filename*=UTF-8''say%20%22hi%22%5C.txt`);
  // Go's PathEscape keeps $&+:=@ and escapes the rest; the quoted name carries the UTF-8 bytes as they are.
  const name = "résumé$@.md";
  expect(contentDisposition("attachment", name)).toBe(
    `attachment; filename="${Buffer.from(name, "utf8").toString("latin1")}"; filename*=UTF-8''r%C3%A9sum%C3%A9$@.md`,
  );
  // A line break cannot split the header.
  expect(contentDisposition("attachment", "a\r\nb")).toStartWith(`attachment; filename="a  b"`);
});
