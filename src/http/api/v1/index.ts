import type { AnyOperation } from "../../route.ts";
import { versionOperations } from "./misc/version.ts";
import { settingsOperations } from "./misc/settings.ts";
import { selfOperations } from "./user/self.ts";
import { emailOperations } from "./user/emails.ts";
import { userSettingsOperations } from "./user/settings.ts";
import { usersOperations } from "./users/users.ts";
import { tokenOperations } from "./users/tokens.ts";
import { adminUserOperations } from "./admin/users.ts";

/** Every /api/v1 operation hearth serves; the OpenAPI document and the route table both come from here. */
export const apiOperations: readonly AnyOperation[] = [
  ...versionOperations,
  ...settingsOperations,
  ...selfOperations,
  ...emailOperations,
  ...userSettingsOperations,
  ...usersOperations,
  ...tokenOperations,
  ...adminUserOperations,
];
