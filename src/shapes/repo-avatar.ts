import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";

/** Gitea's UpdateRepoAvatarOption: the image, base64-encoded. */
export const UpdateRepoAvatarOption = named("UpdateRepoAvatarOption", v.object({ image: opt(v.string()) }));
