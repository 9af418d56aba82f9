import { BadRequest } from "../lib/errors.ts";
import { formParts, multipartBoundary } from "../lib/multipart-stream.ts";

/** A file field of a multipart/form-data body, its bytes streamed as they arrive. */
export interface FilePart {
  /** The file name the client sent, reduced to its last path element as Go's FileName does. */
  filename: string;
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * Go's FormFile over a streamed body: parts are skipped until the first file part named `field`,
 * whose bytes are handed over as they arrive; the rest of the body is not read. `use` must consume
 * the chunks before it returns. Errors are Go's messages, answered 400 (Gitea answers 500: the
 * caller can fix the request).
 */
export async function withFormFile<T>(request: Request, field: string, use: (part: FilePart) => Promise<T>): Promise<T> {
  const boundary = multipartBoundary(request.headers.get("content-type"));
  if (!request.body) throw new BadRequest("http: no such file");
  for await (const part of formParts(request.body, boundary)) {
    if (part.name === field && part.filename) return await use({ filename: part.filename, chunks: part.chunks() });
  }
  throw new BadRequest("http: no such file");
}
