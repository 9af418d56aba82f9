import type { Env } from "./env.ts";

/** The instance settings Gitea publishes under /settings/*; values come from the loaded config. */
export function apiSettings(env: Env) {
  const a = env.settings.api;
  return {
    max_response_items: a.maxResponseItems,
    default_paging_num: a.defaultPagingNum,
    default_git_trees_per_page: a.defaultGitTreesPerPage,
    default_max_blob_size: a.defaultMaxBlobSize,
    default_max_response_size: a.defaultMaxResponseSize,
  };
}

/** Gitea's GetGeneralAttachmentSettings: `max_size` is `[attachment] MAX_SIZE` as configured, in MB. */
export function attachmentSettings(env: Env) {
  const a = env.settings.attachment;
  return { enabled: a.enabled, allowed_types: a.allowedTypes, max_size: a.maxSize, max_files: a.maxFiles };
}

/**
 * Gitea's GetGeneralRepoSettings: mirrors as `[mirror] ENABLED` says (push mirrors are hearth's
 * mirrors), stars as `[repository] DISABLE_STARS`. Features hearth has not built yet are reported
 * disabled, so clients do not offer them: migrations, time tracking and LFS.
 */
export function repoSettings(env: Env) {
  return {
    mirrors_disabled: !env.settings.mirror.enabled,
    http_git_disabled: env.settings.repository.disableHttpGit,
    migrations_disabled: true,
    stars_disabled: env.settings.repository.disableStars,
    time_tracking_disabled: true,
    lfs_disabled: true,
  };
}

export function uiSettings(env: Env) {
  const u = env.settings.ui;
  return { default_theme: u.defaultTheme, allowed_reactions: u.reactions, custom_emojis: u.customEmojis };
}
