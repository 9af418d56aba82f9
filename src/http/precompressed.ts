/**
 * A large body that never changes (the API document), compressed once: answered gzip-compressed
 * to clients that accept it, as it is to the others, with `Vary` so caches keep both apart.
 */
export function precompressed(text: string, contentType: string): (request: Request) => Response {
  const raw = new TextEncoder().encode(text);
  const gzip = Bun.gzipSync(raw, { level: 9 });
  return (request) => {
    const headers: Record<string, string> = { "Content-Type": contentType, Vary: "Accept-Encoding" };
    if (!acceptsGzip(request.headers.get("accept-encoding"))) return new Response(raw, { headers });
    return new Response(gzip, { headers: { ...headers, "Content-Encoding": "gzip" } });
  };
}

/**
 * Whether an Accept-Encoding header allows gzip (RFC 9110 §12.5.3): named (or as `x-gzip`) with a
 * non-zero qvalue, or not named while `*` is acceptable. No header means no preference: plain.
 */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let any = false;
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const acceptable = q === undefined || Number(q.slice(2)) > 0;
    if (coding === "gzip" || coding === "x-gzip") return acceptable;
    if (coding === "*") any = acceptable;
  }
  return any;
}
