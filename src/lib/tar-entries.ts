import { Readable } from "node:stream";
import { extract, type Header } from "tar-stream";
import { BadRequest } from "./errors.ts";

/**
 * Tar archives read as streams through `tar-stream` (ustar, GNU long names, PAX records): one
 * entry at a time, its bytes read on demand or skipped, so an archive of any size passes through
 * holding only the current chunk. Malformed archives are 400s in Go's archive/tar words.
 */

/** One member of the archive. Its bytes may be read once, before the next entry is asked for. */
export interface TarEntry {
  /** The full path of the member (ustar prefix, GNU long name or PAX path applied). */
  readonly name: string;
  /** Go's Typeflag: "0" a regular file, "5" a directory, "2" a symlink, "1" a hard link; "?" anything else. */
  readonly type: string;
  readonly size: number;
  /** The member's bytes; more than `limit` bytes is a 400. */
  bytes(limit: number): Promise<Uint8Array>;
  /** The member's bytes as UTF-8 text; more than `limit` bytes is a 400. */
  text(limit: number): Promise<string>;
}

const TYPEFLAGS: Partial<Record<NonNullable<Header["type"]>, string>> = { file: "0", link: "1", symlink: "2", directory: "5" };

/** tar-stream's failures in Go's words: a damaged header, or an archive that stops in a member. */
function asBadRequest(err: unknown): unknown {
  if (err instanceof BadRequest || !(err instanceof Error)) return err;
  if (/unexpected end of data/i.test(err.message)) return new BadRequest("unexpected EOF");
  if (/invalid tar header|checksum|header/i.test(err.message)) return new BadRequest("archive/tar: invalid header");
  return err;
}

/**
 * The entries of a tar archive read from `source` (already decompressed). Leaving an entry's bytes
 * unread skips them; breaking out of the loop stops reading the source.
 */
export async function* tarEntries(source: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const input = Readable.from(source, { objectMode: false });
  const archive = extract();
  input.on("error", (err) => archive.destroy(err));
  input.pipe(archive);
  try {
    for await (const member of archive) {
      const header = member.header;
      const size = header.size ?? 0;
      let consumed = false;
      const entry: TarEntry = {
        name: header.name,
        type: TYPEFLAGS[header.type ?? "file"] ?? "?",
        size,
        async bytes(limit) {
          if (consumed) throw new Error("the entry was read already");
          consumed = true;
          if (size > limit) throw new BadRequest("archive member too large");
          const parts: Uint8Array[] = [];
          try {
            for await (const chunk of member as AsyncIterable<Uint8Array>) parts.push(chunk);
          } catch (err) {
            throw asBadRequest(err);
          }
          return Buffer.concat(parts);
        },
        async text(limit) {
          return new TextDecoder().decode(await this.bytes(limit));
        },
      };
      yield entry;
      if (!consumed) member.resume();
    }
  } catch (err) {
    throw asBadRequest(err);
  } finally {
    input.unpipe(archive);
    input.destroy();
    archive.destroy();
  }
}
