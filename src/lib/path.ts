/**
 * Gitea's util.PathJoinRelX for one user-supplied path inside a repository: backslashes read as
 * slashes, empty and `.` components dropped, `..` resolved lexically without ever climbing above
 * the root (`../x` is `x`, `/etc/passwd` is `etc/passwd`). The root itself is "".
 */
export function cleanRelativePath(path: string): string {
  const out: string[] = [];
  for (const part of path.replaceAll("\\", "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}

/** Go's path.Clean: `.` dropped, `..` applied (kept at the front of a relative path), one slash between; "." for nothing. */
export function cleanPath(path: string): string {
  const rooted = path.startsWith("/");
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
      continue;
    }
    out.push(seg);
  }
  const joined = out.join("/");
  return rooted ? `/${joined}` : joined || ".";
}
