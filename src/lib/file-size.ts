/**
 * Bytes in binary units as people read them, as Gitea's FileSize (humanize.IBytes): `512 B`,
 * `1.0 KiB`, `1.5 KiB`, `12 MiB`: one decimal below ten, none above.
 */
export function fileSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  if (i === 0) return `${bytes} B`;
  return `${n.toFixed(n < 10 ? 1 : 0)} ${units[i]}`;
}
