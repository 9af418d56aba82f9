import { Invalid, TooLarge } from "../lib/errors.ts";

/** API request bodies are JSON documents; anything near this size is a mistake or an attack. */
export const MAX_API_BODY_BYTES = 32 * 1024 * 1024;

/** Reads the body as text with a hard cap, whether or not Content-Length is sent. */
async function readCapped(request: Request, cap: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > cap) throw new TooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel();
      throw new TooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** A plain-text request body (`text/plain`), as it comes, under the same cap. */
export function readTextBody(request: Request): Promise<string> {
  return readCapped(request, MAX_API_BODY_BYTES);
}

/**
 * Parses an API request body as Gitea's binding does: JSON, or an urlencoded form (fields by their
 * JSON names). An empty body reads as `{}`.
 */
export async function readApiBody(request: Request): Promise<unknown> {
  const text = await readCapped(request, MAX_API_BODY_BYTES);
  if (text.trim() === "") return {};
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") {
    const out: Record<string, string | string[]> = {};
    for (const [k, val] of new URLSearchParams(text)) {
      const prev = out[k];
      out[k] = prev === undefined ? val : Array.isArray(prev) ? [...prev, val] : [prev, val];
    }
    return out;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Invalid(`[]: ${(err as Error).message}`);
  }
}
