import { repoApiUrl } from "../../../../convert/content.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { blobById, rawFileAt, webArchive } from "../../../../services/repo/code-files.ts";
import { resolveCodeRef, type RefStyle } from "../../../../services/repo/code-ref.ts";
import { serveArchive, serveBlob } from "../../../serve-file.ts";
import { page, type PageContext } from "../../page.ts";
import { refSub } from "../../views/tree.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";

/**
 * A repository's files and archives as downloads (Gitea's SingleDownload, DownloadByID, their
 * `OrLFS` forms and Download): for code readers only (404 otherwise, and for an empty
 * repository), and for scripts with a token or basic auth too, as Gitea's web accepts those on
 * these paths. Every file goes out with the user-content headers (services: serve-file.ts).
 */
const readsCode = { scope: "repository", signIn: false, repo: { read: "code" } } as const;

function decodeRest(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new NotFound();
  }
}

/**
 * `/raw/...` and `/media/...`: `blob/{sha}`, `{branch|tag|commit}/{ref}/{path}`, or the legacy
 * `{ref}/{path}`, which redirects to the path with its ref's kind as Gitea does.
 */
async function download(ctx: PageContext & { repo: RepoContext }, kind: "raw" | "media"): Promise<Response> {
  const { env, repo: rc } = ctx;
  const raw = ctx.params["*"] ?? "";
  const slash = raw.indexOf("/");
  const head = slash < 0 ? raw : raw.slice(0, slash);
  const rest = slash < 0 ? "" : raw.slice(slash + 1);
  if (head === "blob") {
    const blob = await blobById(env, rc, decodeRest(rest));
    return serveBlob(env, ctx.request, { ...blob, name: blob.oid, lastModified: undefined });
  }
  const style: RefStyle = head === "branch" || head === "tag" || head === "commit" ? head : "legacy";
  const ref = await resolveCodeRef(env, rc, style, decodeRest(style === "legacy" ? raw : rest));
  if (ref.legacy) {
    const repoAt = `/${encodeURIComponent(rc.owner.name)}/${encodeURIComponent(rc.repo.name)}`;
    const target = ref.legacy.fallback ? `${refSub(ref)}/${raw}` : `${ref.kind}/${raw}`;
    return ctx.redirect(`${repoAt}/${kind}/${target}${ctx.url.search}`);
  }
  // hearth keeps no LFS objects yet: `media` serves a pointer file as the blob it is, as Gitea
  // does when the pointer's object is not in its store.
  return serveBlob(env, ctx.request, await rawFileAt(env, rc, ref));
}

export const raw = page({
  access: readsCode,
  acceptsTokens: true,
  handler: (ctx) => download(ctx, "raw"),
});

export const media = page({
  access: readsCode,
  acceptsTokens: true,
  handler: (ctx) => download(ctx, "media"),
});

/** `/archive/{ref}.zip|.tar.gz|.bundle` (the API's `zipball_url`, `tarball_url`), streamed as git makes it. */
export const archive = page({
  access: readsCode,
  acceptsTokens: true,
  async handler(ctx) {
    const { env, repo: rc } = ctx;
    const made = await webArchive(env, rc, decodeRest(ctx.params["*"] ?? ""));
    return serveArchive(env, made, repoApiUrl(env.settings, { owner: rc.owner.name, name: rc.repo.name }));
  },
});
