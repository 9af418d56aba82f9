import css from "./assets/hearth.css" with { type: "text" };
import logo from "./assets/logo.svg" with { type: "text" };
import lines from "./assets/lines.js" with { type: "text" };

/**
 * The web interface's assets, embedded in the executable: one stylesheet, the logo, and the one
 * script (line ranges in a file view, an enhancement the page works without), each named by its
 * content hash so a browser keeps it for good and fetches it once per version.
 */
const hash = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 12);

const assets = new Map<string, { body: string; type: string }>([
  [`/assets/css/hearth.${hash(css)}.css`, { body: css, type: "text/css; charset=utf-8" }],
  [`/assets/img/logo.${hash(logo)}.svg`, { body: logo, type: "image/svg+xml" }],
  [`/assets/js/lines.${hash(lines)}.js`, { body: lines, type: "text/javascript; charset=utf-8" }],
]);

const [stylesheet, logoPath, linesScript] = [...assets.keys()] as [string, string, string];
export { stylesheet, logoPath, linesScript };

export function webAsset(request: Request, path: string): Response | undefined {
  const asset = assets.get(path);
  if (!asset) return undefined;
  const etag = `"${path.split(".").at(-2)}"`;
  const headers = {
    "Content-Type": asset.type,
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(asset.body, { headers });
}
