import { describe, expect, test } from "bun:test";
import { giteaContext, refShortName, refType, type GiteaContextInput } from "./github-context.ts";

const base: GiteaContextInput = {
  runId: 42,
  runIndex: 7,
  ref: "refs/heads/main",
  commitSha: "abc123",
  triggerEvent: "push",
  workflowId: "ci.yml",
  eventPayload: '{"ref":"refs/heads/main","before":"000"}',
  actor: "alice",
  repoOwner: "alice",
  repoName: "tools",
  repoHtmlUrl: "https://forge.example/alice/tools",
  appUrl: "https://forge.example/",
  defaultActionsUrl: "https://github.com",
};

describe("giteaContext", () => {
  test("a push", () => {
    const c = giteaContext(base);
    expect(c).toMatchObject({
      actor: "alice",
      api_url: "https://forge.example/api/v1",
      event: { ref: "refs/heads/main", before: "000" },
      event_name: "push",
      ref: "refs/heads/main",
      ref_name: "main",
      ref_type: "branch",
      repository: "alice/tools",
      repository_owner: "alice",
      repositoryUrl: "https://forge.example/alice/tools",
      run_id: "42",
      run_number: "7",
      run_attempt: "",
      job: "",
      server_url: "https://forge.example/",
      sha: "abc123",
      workflow: "ci.yml",
      base_ref: "",
      head_ref: "",
      secret_source: "Actions",
      gitea_default_actions_url: "https://github.com",
    });
  });
  test("a job's context carries its id and attempt", () => {
    expect(giteaContext({ ...base, job: { jobId: "build", attempt: 2 } })).toMatchObject({ job: "build", run_attempt: "2" });
  });
  const pr = {
    pull_request: { base: { ref: "main", label: "main", sha: "base1" }, head: { ref: "feature", label: "feature", sha: "head1" } },
  };
  test("a pull request: base and head refs", () => {
    const c = giteaContext({ ...base, ref: "refs/pull/3/head", commitSha: "head1", triggerEvent: "pull_request", eventPayload: pr });
    expect(c).toMatchObject({ base_ref: "main", head_ref: "feature", ref: "refs/pull/3/head", ref_name: "3", ref_type: "", sha: "head1" });
  });
  test("pull_request_target runs on the base branch", () => {
    const c = giteaContext({ ...base, ref: "refs/pull/3/head", commitSha: "head1", triggerEvent: "pull_request_target", eventPayload: pr });
    expect(c).toMatchObject({ ref: "refs/heads/main", ref_name: "main", ref_type: "branch", sha: "base1" });
  });
  test("an unreadable payload leaves the event empty", () => {
    expect(giteaContext({ ...base, eventPayload: "{" })["event"]).toEqual({});
  });
});

test("refShortName and refType as Gitea's RefName", () => {
  expect(refShortName("refs/heads/a/b")).toBe("a/b");
  expect(refShortName("refs/tags/v1")).toBe("v1");
  expect(refShortName("refs/pull/12/head")).toBe("12");
  expect(refShortName("refs/for/main")).toBe("main");
  expect(refShortName("abc")).toBe("abc");
  expect(refType("refs/tags/v1")).toBe("tag");
  expect(refType("0123abcd")).toBe("commit");
  expect(refType("refs/pull/1/head")).toBe("");
});
