import avatarDefault from "../../assets/img/avatar_default.png" with { type: "file" };
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };

/**
 * Files served as they are, embedded by `bun build --compile` (a `type: "file"` import is a path
 * inside the executable). Nothing is fetched from elsewhere: the instance may be air-gapped.
 */
export const staticFiles: Record<string, { path: string; type: string }> = {
  "/assets/img/avatar_default.png": { path: avatarDefault, type: "image/png" },
  "/assets/swagger-ui/swagger-ui-bundle.js": { path: swaggerBundle, type: "text/javascript; charset=utf-8" },
  "/assets/swagger-ui/swagger-ui.css": { path: swaggerCss, type: "text/css; charset=utf-8" },
};

export function staticResponse(pathname: string): Response | undefined {
  const entry = staticFiles[pathname];
  if (!entry) return undefined;
  return new Response(Bun.file(entry.path), {
    headers: {
      "Content-Type": entry.type,
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export function swaggerPage(rootUrl: string): Response {
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>hearth API</title>
<link rel="stylesheet" href="${rootUrl}assets/swagger-ui/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${rootUrl}assets/swagger-ui/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`${rootUrl}swagger.v1.json`)}, dom_id: "#swagger-ui", deepLinking: true });
</script>
</body>
</html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
