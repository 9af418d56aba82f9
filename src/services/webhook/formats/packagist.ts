/**
 * The `packagist` hook type (Gitea's services/webhook/packagist.go): Packagist's update-package
 * call. The hook's URL is `https://packagist.org/api/update-package?username=…&apiToken=…`; the
 * body names the package to update, from the hook's meta. Gitea sends it for every event the hook
 * is subscribed to, with an empty package URL for anything but a push.
 */
import type { PayloadFormatter } from "../contracts.ts";
import { UnsupportedEventError, metaString, parseMeta } from "./convert.ts";
import { goJSON } from "./json.ts";

/** Gitea's PackagistMeta. */
export interface PackagistMeta {
  username: string;
  api_token: string;
  package_url: string;
}

export const formatPackagist: PayloadFormatter = (hook, event) => {
  if (event === "workflow_run" || event === "workflow_job") throw new UnsupportedEventError(event);
  const url = event === "push" ? metaString(parseMeta(hook.meta), "package_url") : "";
  return { body: goJSON({ repository: { url } }), contentType: "application/json" };
};
