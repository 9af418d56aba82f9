/**
 * Every web page's method and path, and the module declaring it (`page({ access, handler })`,
 * under the export `name`). A page's module is imported on its first request, so a start loads
 * no page, template or renderer; test/web/routes.test.ts checks each entry names a declared page.
 * Paths are Gitea's (routers/web/web.go).
 */
export interface WebRoute {
  method: "GET" | "POST";
  path: string;
  load: () => Promise<Record<string, unknown>>;
  name: string;
}

const home = () => import("./pages/home.ts");
const signin = () => import("./pages/user/signin.ts");
const signup = () => import("./pages/user/signup.ts");
const settingsProfile = () => import("./pages/user/settings.ts");
const settingsAccount = () => import("./pages/user/settings-account.ts");
const settingsApplications = () => import("./pages/user/settings-applications.ts");
const settingsSecurity = () => import("./pages/user/settings-security.ts");
const explorePages = () => import("./pages/explore.ts");
const profilePages = () => import("./pages/profile.ts");
const orgPages = () => import("./pages/org.ts");
const avatarPages = () => import("./pages/avatar.ts");
const historyPages = () => import("./pages/repo/history.ts");
const commitPage = () => import("./pages/repo/commit.ts");
const refPages = () => import("./pages/repo/refs.ts");
const comparePage = () => import("./pages/repo/compare.ts");
const releasePages = () => import("./pages/repo/releases.ts");
const pullFilePages = () => import("./pages/repo/pull-files.ts");
const issueListPages = () => import("./pages/repo/issues.ts");
const issuePage = () => import("./pages/repo/issue-view.ts");
const pullPages = () => import("./pages/repo/pulls.ts");
const milestonePages = () => import("./pages/repo/milestones.ts");
const labelPage = () => import("./pages/repo/labels.ts");
const codePages = () => import("./pages/repo/code.ts");
const rawPages = () => import("./pages/repo/raw.ts");
const actionsList = () => import("./pages/repo/actions.ts");
const actionsRun = () => import("./pages/repo/actions-run.ts");

export const webRoutes: readonly WebRoute[] = [
  { method: "GET", path: "/", load: home, name: "home" },
  { method: "GET", path: "/robots.txt", load: home, name: "robots" },
  // Issue, comment and release files (`browser_download_url`).
  { method: "GET", path: "/attachments/:uuid", load: () => import("./pages/attachment.ts"), name: "attachment" },

  { method: "GET", path: "/user/login", load: signin, name: "loginForm" },
  { method: "POST", path: "/user/login", load: signin, name: "login" },
  { method: "GET", path: "/user/two_factor", load: signin, name: "twoFactorForm" },
  { method: "POST", path: "/user/two_factor", load: signin, name: "twoFactor" },
  { method: "GET", path: "/user/two_factor/scratch", load: signin, name: "scratchForm" },
  { method: "POST", path: "/user/two_factor/scratch", load: signin, name: "scratch" },
  { method: "POST", path: "/user/logout", load: signin, name: "logout" },
  { method: "GET", path: "/user/sign_up", load: signup, name: "signUpForm" },
  { method: "POST", path: "/user/sign_up", load: signup, name: "signUp" },

  // ── account settings ──
  { method: "GET", path: "/user/settings", load: settingsProfile, name: "profile" },
  { method: "POST", path: "/user/settings", load: settingsProfile, name: "profilePost" },
  { method: "POST", path: "/user/settings/avatar", load: settingsProfile, name: "avatarPost" },
  { method: "POST", path: "/user/settings/avatar/delete", load: settingsProfile, name: "avatarDelete" },
  { method: "GET", path: "/user/settings/account", load: settingsAccount, name: "account" },
  { method: "POST", path: "/user/settings/account", load: settingsAccount, name: "accountPost" },
  { method: "POST", path: "/user/settings/account/email", load: settingsAccount, name: "emailPost" },
  { method: "POST", path: "/user/settings/account/email/delete", load: settingsAccount, name: "emailDelete" },
  { method: "GET", path: "/user/settings/applications", load: settingsApplications, name: "applications" },
  { method: "POST", path: "/user/settings/applications", load: settingsApplications, name: "applicationsPost" },
  { method: "POST", path: "/user/settings/applications/delete", load: settingsApplications, name: "applicationsDelete" },
  { method: "GET", path: "/user/settings/security", load: settingsSecurity, name: "security" },
  { method: "GET", path: "/user/settings/security/two_factor/enroll", load: settingsSecurity, name: "enrollForm" },
  { method: "POST", path: "/user/settings/security/two_factor/enroll", load: settingsSecurity, name: "enroll" },
  { method: "POST", path: "/user/settings/security/two_factor/regenerate_scratch", load: settingsSecurity, name: "regenerateScratch" },
  { method: "POST", path: "/user/settings/security/two_factor/disable", load: settingsSecurity, name: "disable" },
  { method: "GET", path: "/user/settings/packages", load: () => import("./pages/user/settings-packages.ts"), name: "userPackages" },
  { method: "GET", path: "/org/:org/settings/packages", load: () => import("./pages/user/settings-packages.ts"), name: "orgPackages" },
  { method: "POST", path: "/user/settings/packages/chef/regenerate_keypair", load: () => import("./pages/user/settings-packages-chef.ts"), name: "userRegenerateKeypair" },
  { method: "POST", path: "/org/:org/settings/packages/chef/regenerate_keypair", load: () => import("./pages/user/settings-packages-chef.ts"), name: "orgRegenerateKeypair" },
  { method: "POST", path: "/user/settings/packages/cargo/initialize", load: () => import("./pages/user/settings-packages-cargo.ts"), name: "userInitialize" },
  { method: "POST", path: "/user/settings/packages/cargo/rebuild", load: () => import("./pages/user/settings-packages-cargo.ts"), name: "userRebuild" },
  { method: "POST", path: "/org/:org/settings/packages/cargo/initialize", load: () => import("./pages/user/settings-packages-cargo.ts"), name: "orgInitialize" },
  { method: "POST", path: "/org/:org/settings/packages/cargo/rebuild", load: () => import("./pages/user/settings-packages-cargo.ts"), name: "orgRebuild" },

  // ── new migration (Gitea's /repo/migrate: the chooser, a service's form, its post) ──
  { method: "GET", path: "/repo/migrate", load: () => import("./pages/repo/migrate.ts"), name: "migrateForm" },
  { method: "POST", path: "/repo/migrate", load: () => import("./pages/repo/migrate.ts"), name: "migratePost" },

  // ── explore, profiles, avatars ──
  { method: "GET", path: "/:owner/-/packages", load: () => import("./pages/packages.ts"), name: "list" },
  { method: "GET", path: "/:owner/-/packages/:type/:name/:version", load: () => import("./pages/packages.ts"), name: "version" },
  { method: "GET", path: "/explore", load: explorePages, name: "explore" },
  { method: "GET", path: "/explore/repos", load: explorePages, name: "exploreRepos" },
  { method: "GET", path: "/explore/users", load: explorePages, name: "exploreUsersPage" },
  { method: "GET", path: "/explore/organizations", load: explorePages, name: "exploreOrgsPage" },
  { method: "GET", path: "/user/avatar/:username/:size", load: avatarPages, name: "avatarByName" },
  { method: "GET", path: "/org/:org/members", load: orgPages, name: "members" },
  { method: "GET", path: "/org/:org/teams", load: orgPages, name: "teams" },
  { method: "GET", path: "/org/:org/teams/:team", load: orgPages, name: "teamMembers" },
  { method: "GET", path: "/org/:org/teams/:team/repositories", load: orgPages, name: "teamRepositories" },
  // `/{username}` (and `/{username}.png`): named `:owner` because git's `/:owner/:repo/...` routes share the segment.
  { method: "GET", path: "/:owner", load: profilePages, name: "profile" },

  // ── repository: code, raw files, archives, releases ──
  { method: "GET", path: "/:owner/:repo", load: codePages, name: "repoHome" },
  // `/src/{branch|tag|commit}/{ref}/{path}` and the legacy `/src/{ref}/{path}`: one route, the page reads the kind.
  { method: "GET", path: "/:owner/:repo/src/*", load: codePages, name: "src" },
  { method: "GET", path: "/:owner/:repo/raw/*", load: rawPages, name: "raw" },
  { method: "GET", path: "/:owner/:repo/media/*", load: rawPages, name: "media" },
  { method: "GET", path: "/:owner/:repo/archive/*", load: rawPages, name: "archive" },

  { method: "GET", path: "/:owner/:repo/releases", load: releasePages, name: "releases" },
  { method: "GET", path: "/:owner/:repo/releases/tag/*", load: releasePages, name: "releaseOfTag" },
  { method: "GET", path: "/:owner/:repo/releases/latest", load: releasePages, name: "latest" },
  { method: "GET", path: "/:owner/:repo/releases/download/:tag/:file", load: releasePages, name: "download" },

  // ── repository: history, commits, diffs, compare, pull request files ──
  { method: "GET", path: "/:owner/:repo/commits", load: historyPages, name: "commitsHome" },
  { method: "GET", path: "/:owner/:repo/commits/branch/*", load: historyPages, name: "commitsOfBranch" },
  { method: "GET", path: "/:owner/:repo/commits/tag/*", load: historyPages, name: "commitsOfTag" },
  { method: "GET", path: "/:owner/:repo/commits/commit/*", load: historyPages, name: "commitsOfCommit" },
  { method: "GET", path: "/:owner/:repo/commits/*", load: historyPages, name: "commitsLegacy" },
  // `/commit/{sha}`, `{sha}.diff` and `{sha}.patch`: one segment the page splits.
  { method: "GET", path: "/:owner/:repo/commit/:sha", load: commitPage, name: "commit" },
  { method: "GET", path: "/:owner/:repo/branches", load: refPages, name: "branches" },
  { method: "GET", path: "/:owner/:repo/tags", load: refPages, name: "tags" },
  { method: "GET", path: "/:owner/:repo/compare/*", load: comparePage, name: "compare" },
  { method: "GET", path: "/:owner/:repo/pulls/:index/files", load: pullFilePages, name: "pullFiles" },
  { method: "GET", path: "/:owner/:repo/pulls/:index/commits", load: pullFilePages, name: "pullCommitList" },

  // ── repository: issues, pull requests, milestones, labels ──
  { method: "GET", path: "/:owner/:repo/issues", load: issueListPages, name: "issues" },
  { method: "GET", path: "/:owner/:repo/issues/:index", load: issuePage, name: "viewIssue" },
  { method: "GET", path: "/:owner/:repo/pulls", load: pullPages, name: "pulls" },
  // Also `/pulls/{index}.diff` and `.patch`: one route, as in Gitea (the page tells them apart).
  { method: "GET", path: "/:owner/:repo/pulls/:index", load: pullPages, name: "viewPull" },
  { method: "GET", path: "/:owner/:repo/milestones", load: milestonePages, name: "milestones" },
  { method: "GET", path: "/:owner/:repo/milestone/:id", load: milestonePages, name: "milestone" },
  { method: "GET", path: "/:owner/:repo/labels", load: labelPage, name: "labels" },

  // ── repository: settings (Gitea's one POST with an `action` field) ──
  { method: "GET", path: "/:owner/:repo/settings", load: () => import("./pages/repo/settings.ts"), name: "settings" },
  { method: "POST", path: "/:owner/:repo/settings", load: () => import("./pages/repo/settings.ts"), name: "settingsPost" },

  // ── repository: Actions (runs, jobs, logs; cancel and re-run) ──
  { method: "GET", path: "/:owner/:repo/actions", load: actionsList, name: "list" },
  { method: "POST", path: "/:owner/:repo/actions/disable", load: actionsList, name: "disableWorkflow" },
  { method: "POST", path: "/:owner/:repo/actions/enable", load: actionsList, name: "enableWorkflow" },
  { method: "GET", path: "/:owner/:repo/actions/runs/:run", load: actionsRun, name: "viewRun" },
  { method: "POST", path: "/:owner/:repo/actions/runs/:run/cancel", load: actionsRun, name: "cancel" },
  { method: "POST", path: "/:owner/:repo/actions/runs/:run/rerun", load: actionsRun, name: "rerunAll" },
  { method: "GET", path: "/:owner/:repo/actions/runs/:run/jobs/:job", load: actionsRun, name: "viewJob" },
  { method: "GET", path: "/:owner/:repo/actions/runs/:run/jobs/:job/logs", load: actionsRun, name: "jobLogs" },
  { method: "POST", path: "/:owner/:repo/actions/runs/:run/jobs/:job/rerun", load: actionsRun, name: "rerunJob" },
  { method: "GET", path: "/:owner/:repo/actions/runs/:run/artifacts/:artifact_name", load: actionsRun, name: "downloadArtifact" },
  { method: "POST", path: "/:owner/:repo/actions/runs/:run/artifacts/:artifact_name/delete", load: actionsRun, name: "deleteArtifact" },
];
