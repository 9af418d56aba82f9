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
