import { operation } from "../../../route.ts";
import { ServerVersion } from "../../../../shapes/settings.ts";
import { VERSION } from "../../../../version.ts";

export const versionOperations = [
  operation({
    method: "GET",
    path: "/version",
    operationId: "getVersion",
    tag: "miscellaneous",
    summary: "Returns the version of the Gitea API this server implements",
    access: { scope: "public", signIn: false },
    responses: { 200: ServerVersion },
    handler: () => ({ version: VERSION.api }),
  }),
];
