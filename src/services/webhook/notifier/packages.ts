import type { Env } from "../../env.ts";
import type { PackageEvent } from "../../events/package-events.ts";
import type { PackagePayload } from "../payload-types.ts";
import { anyHookWants, anyOwnerHookWants, currentRepo, packageEventView, userById } from "../sources.ts";
import { toAPIPackage } from "../../../convert/package.ts";
import { userJson } from "./common.ts";
import { fireEvent } from "../enqueue.ts";

/**
 * Gitea's notifyPackage (PackageCreate, PackageDelete): the version as its sender sees it, to the
 * hooks of the linked repository (when there is one), of the package's owner and of the site.
 */
export async function onPackageEvent(env: Env, e: PackageEvent): Promise<void> {
  const owner = userById(env, e.owner.id) ?? e.owner;
  const view = packageEventView(env, e.doer, owner, e.pkg, e.version);
  const linked = view.pkg.repoId > 0 ? currentRepo(env, view.pkg.repoId) : undefined;
  const wanted = linked ? anyHookWants(env, linked.repo, "package") : anyOwnerHookWants(env, owner.id, "package");
  if (!wanted) return;
  const payload: PackagePayload = {
    action: e.kind,
    repository: null,
    package: { ...toAPIPackage(env.settings, view, e.doer) },
    organization: null,
    sender: userJson(env, e.doer),
  };
  fireEvent(env, { event: "package", payload: { ...payload }, owner: linked?.owner ?? owner, ...(linked ? { repo: linked.repo } : {}) });
}
