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

export function attachmentSettings(env: Env) {
  const a = env.settings.attachment;
  return { enabled: a.enabled, allowed_types: a.allowedTypes, max_size: a.maxSize * 1024 * 1024, max_files: a.maxFiles };
}

/**
 * Features hearth has not built yet are reported disabled, so clients do not offer them:
 * mirrors, migrations, stars, time tracking and LFS arrive with their own issues.
 */
export function repoSettings(env: Env) {
  return {
    mirrors_disabled: true,
    http_git_disabled: env.settings.repository.disableHttpGit,
    migrations_disabled: true,
    stars_disabled: true,
    time_tracking_disabled: true,
    lfs_disabled: true,
  };
}

export function uiSettings(env: Env) {
  const u = env.settings.ui;
  return { default_theme: u.defaultTheme, allowed_reactions: u.reactions, custom_emojis: u.customEmojis };
}
