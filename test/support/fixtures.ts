import type { TestApp } from "./app.ts";

const API = "/api/v1";

/** What a populated repository holds, so that paths naming `:index`, `:id` or a ref resolve. */
export interface RepoFixture {
  owner: string;
  name: string;
  /** A second branch, one commit ahead of `main`, and the head of the pull request. */
  branch: string;
  tag: string;
  head: string;
  issue: number;
  pull: number;
  label: number;
  milestone: number;
  release: number;
  comment: number;
  hook: number;
}

/** Every unit switched on, so a refusal can only come from the access level, never from a unit that is off. */
export const ALL_UNITS = {
  has_code: true,
  has_issues: true,
  has_wiki: true,
  has_pull_requests: true,
  has_projects: true,
  has_releases: true,
  has_packages: true,
  has_actions: true,
} as const;

/**
 * Creates `owner/name` through the API with `token` (the owner's) and one of everything a
 * repository path can name: a branch ahead of main, a tag and its release, a label, a milestone,
 * an issue with a comment, a pull request and an inactive hook (so nothing is ever delivered).
 */
export async function populateRepo(
  t: TestApp,
  token: string,
  owner: string,
  name: string,
  opts: { private?: boolean } = {},
): Promise<RepoFixture> {
  const base = `${API}/repos/${owner}/${name}`;
  const ok = (method: string, path: string, body?: unknown, status = 201) => t.ok(method, `${base}${path}`, token, body, status);
  await t.ok("POST", `${API}/user/repos`, token, { name, auto_init: true, private: opts.private ?? false }, 201);
  await t.ok("PATCH", base, token, ALL_UNITS, 200);
  await ok("POST", "/branches", { new_branch_name: "feat", old_branch_name: "main" });
  await ok("POST", "/contents/feat.txt", { content: btoa("feat\n"), branch: "feat" });
  const head = (await ok("GET", "/branches/main", undefined, 200)).commit.id as string;
  await ok("POST", "/tags", { tag_name: "v1", target: "main" });
  const release = await ok("POST", "/releases", { tag_name: "v1", name: "v1" });
  const label = await ok("POST", "/labels", { name: "bug", color: "#ff0000" });
  const milestone = await ok("POST", "/milestones", { title: "m1" });
  const issue = await ok("POST", "/issues", { title: "i1", labels: [label.id], milestone: milestone.id });
  const comment = await ok("POST", `/issues/${issue.number}/comments`, { body: "c" });
  const pull = await ok("POST", "/pulls", { head: "feat", base: "main", title: "p" });
  const hook = await ok("POST", "/hooks", {
    type: "gitea",
    config: { url: "http://hearth.invalid/hook", content_type: "json" },
    active: false,
  });
  return {
    owner,
    name,
    branch: "feat",
    tag: "v1",
    head,
    issue: issue.number,
    pull: pull.number,
    label: label.id,
    milestone: milestone.id,
    release: release.id,
    comment: comment.id,
    hook: hook.id,
  };
}
