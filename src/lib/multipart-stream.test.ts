import { describe, expect, test } from "bun:test";
import { formParts, multipartBoundary, PART_HEADER_LIMIT } from "./multipart-stream.ts";

/** A body delivered in pieces of `size` bytes, as a network would split it. */
function streamOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function bodyOf(form: FormData): Promise<{ bytes: Uint8Array; boundary: string }> {
  const req = new Request("http://x/", { method: "POST", body: form });
  const boundary = multipartBoundary(req.headers.get("content-type"));
  return { bytes: new Uint8Array(await req.arrayBuffer()), boundary };
}

async function collect(stream: ReadableStream<Uint8Array>, boundary: string) {
  const out: { name: string; filename?: string; value: string }[] = [];
  for await (const part of formParts(stream, boundary)) out.push({ name: part.name, filename: part.filename, value: await part.text(1 << 20) });
  return out;
}

describe("formParts", () => {
  const form = new FormData();
  form.append("name", "demo");
  form.append("content", new File([new Uint8Array(70_000).fill(0x61)], "dir/demo-1.0.tar.gz"));
  form.append("classifiers", "A :: B");
  form.append("classifiers", "é ünïcode");

  for (const size of [1, 7, 64, 4096, 1 << 20]) {
    test(`every part in order with values and file bytes intact, read in ${size}-byte pieces`, async () => {
      const { bytes, boundary } = await bodyOf(form);
      const parts = await collect(streamOf(bytes, size), boundary);
      expect(parts.map((p) => [p.name, p.filename, p.value.length])).toEqual([
        ["name", undefined, 4],
        ["content", "demo-1.0.tar.gz", 70_000],
        ["classifiers", undefined, 6],
        ["classifiers", undefined, 9],
      ]);
      expect(parts[1]!.value).toBe("a".repeat(70_000));
      expect(parts[3]!.value).toBe("é ünïcode");
    });
  }

  test("a part left unread is skipped; stopping early cancels the body", async () => {
    const { bytes, boundary } = await bodyOf(form);
    const names: string[] = [];
    for await (const part of formParts(streamOf(bytes, 100), boundary)) names.push(part.name);
    expect(names).toEqual(["name", "content", "classifiers", "classifiers"]);
    let cancelled = false;
    const source = streamOf(bytes, 100).getReader();
    const watched = new ReadableStream<Uint8Array>({
      async pull(c) {
        const r = await source.read();
        if (r.done) c.close();
        else c.enqueue(r.value);
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const part of formParts(watched, boundary)) if (part.name === "name") break;
    expect(cancelled).toBe(true);
  });

  test("a file part's bytes stream without the whole body being held", async () => {
    const boundary = "b0undary";
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="x.whl"\r\n\r\n`);
    let sent = 0;
    const total = 8 * 1024 * 1024;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent === 0) c.enqueue(head);
        if (sent >= total) {
          c.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
          return c.close();
        }
        c.enqueue(new Uint8Array(64 * 1024).fill(0x5a));
        sent += 64 * 1024;
      },
    });
    let size = 0;
    let largest = 0;
    for await (const part of formParts(stream, boundary)) {
      for await (const chunk of part.chunks()) {
        size += chunk.byteLength;
        largest = Math.max(largest, chunk.byteLength);
      }
    }
    expect(size).toBe(total);
    expect(largest).toBeLessThanOrEqual(128 * 1024);
  });

  test("RFC 5987 names, a preamble, transport padding and an empty file name (a value)", async () => {
    const b = "XyZ";
    const text =
      `preamble\r\n--${b}   \r\ncontent-disposition: form-data; name*=utf-8''na%C3%AFve; filename*=UTF-8''r%C3%A9sum%C3%A9.txt\r\n\r\nabc` +
      `\r\n--${b}\r\nContent-Disposition: form-data; name="v"; filename=""\r\nContent-Type: text/plain\r\n\r\nplain\r\n--${b}--\r\nepilogue`;
    expect(await collect(streamOf(Buffer.from(text), 3), b)).toEqual([
      { name: "naïve", filename: "résumé.txt", value: "abc" },
      { name: "v", filename: undefined, value: "plain" },
    ]);
  });

  test("malformed bodies are Go's 400s", async () => {
    const b = "B";
    const run = (text: string) => collect(streamOf(Buffer.from(text), 5), b);
    await expect(run(`--${b}\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end`)).rejects.toThrow("multipart: NextPart: EOF");
    await expect(run("no delimiter at all")).rejects.toThrow("multipart: NextPart: EOF");
    await expect(run(`--${b}\r\nX-Big: ${"h".repeat(PART_HEADER_LIMIT + 10)}\r\n\r\nv\r\n--${b}--`)).rejects.toThrow("multipart: message too large");
    await expect(run(`--${b}\r\nno colon here\r\n\r\nv\r\n--${b}--`)).rejects.toThrow("malformed MIME header line");
    const big = collect(streamOf(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n${"x".repeat(100)}\r\n--${b}--`), 7), b);
    await expect(big).resolves.toHaveLength(1);
    const limited = (async () => {
      for await (const part of formParts(streamOf(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n${"x".repeat(100)}\r\n--${b}--`), 7), b)) {
        await part.text(99);
      }
    })();
    await expect(limited).rejects.toThrow("multipart: message too large");
  });

  test("the boundary comes from a multipart/form-data Content-Type only", () => {
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(multipartBoundary("Multipart/Form-Data;boundary=xyz")).toBe("xyz");
    expect(() => multipartBoundary("application/json")).toThrow("request Content-Type isn't multipart/form-data");
    expect(() => multipartBoundary(null)).toThrow("request Content-Type isn't multipart/form-data");
    expect(() => multipartBoundary("multipart/form-data")).toThrow("no multipart boundary param in Content-Type");
  });
});
