import type { Settings } from "../config/settings.ts";
import { contentDisposition } from "../lib/content-disposition.ts";

// Serving user content (Gitea's httplib.ServeUserContentByReader and ServeSetHeaders): raw files,
// archives and attachments go out with the same headers.

/** Gitea's `[server] STATIC_CACHE_TIME` default. */
const STATIC_CACHE_SECONDS = 6 * 60 * 60;

/** Gitea's httpcache.SetCacheControlInHeader with NoTransform. */
export function cacheControl(settings: Settings, isPublic: boolean): string {
  if (settings.runMode !== "prod") return "max-age=0, private, must-revalidate, no-transform";
  return `${isPublic ? "public" : "private"}, max-age=${STATIC_CACHE_SECONDS}, no-transform`;
}

/** The headers every served user file carries: type, nosniff, a sandboxing CSP, disposition, caching. */
export function userContentHeaders(
  settings: Settings,
  opts: { contentType: string; filename: string; disposition: "inline" | "attachment"; cachePublic: boolean },
): Headers {
  const h = new Headers();
  h.set("Content-Type", opts.contentType);
  h.set("X-Content-Type-Options", "nosniff");
  h.set(
    "Content-Security-Policy",
    opts.contentType.includes("application/pdf")
      ? "default-src 'none'; style-src 'unsafe-inline'"
      : "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  );
  h.set("Content-Disposition", contentDisposition(opts.disposition, opts.filename));
  h.set("Access-Control-Expose-Headers", "Content-Disposition");
  h.set("Cache-Control", cacheControl(settings, opts.cachePublic));
  return h;
}
