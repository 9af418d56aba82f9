import type { Principal } from "../../../auth/principal.ts";
import { NotFound } from "../../../lib/errors.ts";
import { countDownload, findDownload, type Download } from "../../../services/issue/attachments.ts";
import { serveAttachmentFile } from "../../serve-file.ts";
import { page } from "../page.ts";

/**
 * A token restricted by scopes reads an attachment only with read access to what it belongs to
 * (issues for issue and pull request files, the repository for release files). A public-only
 * token's reach is the permission's business (findDownload finds nothing out of it).
 */
function tokenAllows(principal: Principal | undefined, d: Download): boolean {
  if (!principal?.scope) return true;
  return principal.scope.has(d.unit === "releases" ? "repository" : "issue", "read");
}

/**
 * `GET /attachments/{uuid}`, the `browser_download_url` of an attachment (Gitea's web route
 * ServeAttachment): for the signed-in visitor, and for scripts with a token or basic auth, as
 * Gitea accepts those on this path. Whoever may not read the issue, pull request or release the
 * file belongs to gets 404, as for a missing file. Each permitted download is counted, and the
 * bytes are served exactly as stored, under the same protective headers as raw files.
 */
export const attachment = page({
  access: { scope: "public", signIn: false },
  acceptsTokens: true,
  async handler(ctx) {
    const found = findDownload(ctx.env, ctx.doer, ctx.params.uuid ?? "");
    if (!found || !tokenAllows(ctx.principal, found)) throw new NotFound();
    countDownload(ctx.env, found.attachment);
    return serveAttachmentFile(ctx.env, ctx.request, found);
  },
});
