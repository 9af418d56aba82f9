/** What Go's url.PathEscape leaves as it is in a path segment: unreserved characters and `$&+:=@`. */
const PATH_SEGMENT_SAFE = /[A-Za-z0-9\-_.~$&+:=@]/;

/** Go's url.PathEscape: every other byte of the UTF-8 encoding as %XX, upper-case hex. */
function pathEscape(s: string): string {
  let out = "";
  for (const b of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && PATH_SEGMENT_SAFE.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/**
 * Gitea 1.25's ServeSetHeaders: the name quoted (backslash and double quote escaped) for old
 * clients, and again percent-encoded as UTF-8 in `filename*`, always both. Go writes the quoted
 * name's UTF-8 bytes as they are and turns CR and LF into spaces; a Headers value carries bytes
 * as Latin-1 characters, so the name is re-spelled that way to put the same bytes on the wire.
 */
export function contentDisposition(type: "inline" | "attachment", filename: string): string {
  const quoted = filename.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replace(/[\r\n\0]/g, " ");
  const bytes = Buffer.from(quoted, "utf8").toString("latin1");
  return `${type}; filename="${bytes}"; filename*=UTF-8''${pathEscape(filename)}`;
}
