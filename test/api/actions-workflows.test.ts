import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { expectShape } from "../support/shape.ts";
import { Checkout, settledActions } from "../support/actions-api.ts";
import { ActionWorkflow, ActionWorkflowResponse } from "../../src/shapes/actions.ts";

/**
 * A repository's workflow files over Gitea 1.25's API: listed from the default branch, switched
 * off and on (a switched-off workflow starts nothing on push), and dispatched with inputs — the run
 * a runner then fetches carries Gitea's workflow_dispatch payload.
 */
const t = makeTestApp("", { listen: true });
const API = "/api/v1";
const alice = await t.user("alice");
const reader = await t.user("reader");
const writer = await t.user("writer");
const tok = { alice: t.token(alice), reader: t.token(reader), writer: t.token(writer) };

await t.ok("POST", `${API}/user/repos`, tok.alice, { name: "ci", auto_init: true }, 201);
await t.ok("PUT", `${API}/repos/alice/ci/collaborators/reader`, tok.alice, { permission: "read" }, 204);
await t.ok("PUT", `${API}/repos/alice/ci/collaborators/writer`, tok.alice, { permission: "write" }, 204);
const repo = await t.ok("GET", `${API}/repos/alice/ci`, tok.alice);

const CI = `name: CI
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
`;
const DEPLOY = `on:
  workflow_dispatch:
    inputs:
      target:
        type: choice
        options: [staging, production]
        default: staging
      debug:
        type: boolean
        default: "false"
      note:
        required: true
run-name: deploy to \${{ inputs.target }}
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: echo \${{ inputs.target }}
`;

const checkout = await Checkout.clone(t, "alice/ci", "alice", tok.alice);
const sha = await checkout.push({ ".gitea/workflows/ci.yml": CI, ".gitea/workflows/deploy.yaml": DEPLOY }, "add workflows");
const runner = await MockRunner.register(t.baseUrl, {
  token: (await t.ok("GET", `${API}/repos/alice/ci/actions/runners/registration-token`, tok.alice)).token,
  name: "r",
  labels: ["ubuntu-latest"],
});

/** The runs of a workflow file, newest first. */
async function runsOf(workflow: string): Promise<any[]> {
  const all = (await t.ok("GET", `${API}/repos/alice/ci/actions/runs?limit=50`, tok.alice)).workflow_runs as any[];
  return all.filter((r) => r.path.startsWith(`${workflow}@`));
}

describe("listing workflows", () => {
  test("the default branch's workflow files, as ActionWorkflowResponse", async () => {
    const res = await t.ok("GET", `${API}/repos/alice/ci/actions/workflows`, tok.reader);
    expectShape(res, ActionWorkflowResponse);
    for (const w of res.workflows) expectShape(w, ActionWorkflow);
    expect(res.total_count).toBe(2);
    const byId = new Map((res.workflows as any[]).map((w) => [w.id, w]));
    expect(byId.get("ci.yml")).toMatchObject({
      id: "ci.yml",
      name: "CI",
      path: ".gitea/workflows/ci.yml",
      state: "active",
      url: `${t.baseUrl}api/v1/repos/alice/ci/actions/workflows/ci.yml`,
      html_url: `${t.baseUrl}alice/ci/src/branch/main/.gitea/workflows/ci.yml`,
      badge_url: `${t.baseUrl}alice/ci/actions/workflows/ci.yml/badge.svg?branch=main`,
      deleted_at: "0001-01-01T00:00:00Z",
    });
    // Without a `name:` the file name names it.
    expect(byId.get("deploy.yaml")).toMatchObject({ id: "deploy.yaml", name: "deploy.yaml", path: ".gitea/workflows/deploy.yaml" });
    const commit = await t.ok("GET", `${API}/repos/alice/ci/git/commits/${sha}`, tok.alice);
    expect(Date.parse(byId.get("ci.yml").created_at)).toBe(Date.parse(commit.commit.author.date));
  });

  test("one workflow by its file name; another is 404", async () => {
    const got = await t.ok("GET", `${API}/repos/alice/ci/actions/workflows/ci.yml`, tok.reader);
    expectShape(got, ActionWorkflow);
    expect(got.name).toBe("CI");
    const missing = await t.json("GET", `${API}/repos/alice/ci/actions/workflows/nope.yml`, { token: tok.reader });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('workflow "nope.yml" not found');
  });

  test("listing needs a token and the Actions unit readable", async () => {
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/workflows`)).status).toBe(401);
  });
});

describe("switching a workflow off and on", () => {
  test("a reader may not (403), a writer may; an unknown workflow is 404", async () => {
    const res = await t.json("PUT", `${API}/repos/alice/ci/actions/workflows/ci.yml/disable`, { token: tok.reader });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("user should have a permission to write to a repo");
    expect((await t.json("PUT", `${API}/repos/alice/ci/actions/workflows/nope.yml/disable`, { token: tok.writer })).status).toBe(404);
  });

  test("a disabled workflow shows disabled_manually and starts no run on push; enabled again, it does", async () => {
    const before = (await runsOf("ci.yml")).length;
    expect(before).toBe(1);
    expect((await t.json("PUT", `${API}/repos/alice/ci/actions/workflows/ci.yml/disable`, { token: tok.writer })).status).toBe(204);
    expect((await t.ok("GET", `${API}/repos/alice/ci/actions/workflows/ci.yml`, tok.reader)).state).toBe("disabled_manually");
    await checkout.push({ "a.txt": "a\n" }, "while disabled");
    expect((await runsOf("ci.yml")).length).toBe(before);
    expect((await t.json("PUT", `${API}/repos/alice/ci/actions/workflows/ci.yml/enable`, { token: tok.writer })).status).toBe(204);
    expect((await t.ok("GET", `${API}/repos/alice/ci/actions/workflows/ci.yml`, tok.reader)).state).toBe("active");
    await checkout.push({ "b.txt": "b\n" }, "enabled again");
    const after = await runsOf("ci.yml");
    expect(after.length).toBe(before + 1);
    expect(after[0].display_title).toBe("enabled again");
  });
});

describe("dispatching a workflow", () => {
  test("204, and the run carries the inputs given, the declared defaults for the rest, and Gitea's payload", async () => {
    const res = await t.json("POST", `${API}/repos/alice/ci/actions/workflows/deploy.yaml/dispatches`, {
      token: tok.writer,
      body: { ref: "main", inputs: { target: "production", note: "ship it", undeclared: "dropped" } },
    });
    expect(res.status).toBe(204);
    const [run] = await runsOf("deploy.yaml");
    expect(run).toMatchObject({
      event: "workflow_dispatch",
      path: "deploy.yaml@refs/heads/main",
      head_branch: "main",
      display_title: "deploy to production",
      actor: { login: "writer" },
      status: "queued",
    });
    // The runner gets the dispatch's payload as github.event (ci.yml's push run waits too; take deploy's).
    let task;
    for (let i = 0; i < 4 && !task; i++) {
      const next = (await runner.fetchTask()).task;
      if (!next) break;
      const ctx = next.context as Record<string, any>;
      if (ctx.event_name === "workflow_dispatch") task = next;
      else await runner.runTask(next, { steps: [{}] });
      await settledActions(t);
    }
    expect(task).toBeDefined();
    const ctx = task!.context as Record<string, any>;
    expect(ctx.event).toMatchObject({
      workflow: "deploy.yaml",
      ref: "main",
      inputs: { target: "production", debug: "false", note: "ship it" },
      repository: { id: repo.id, full_name: "alice/ci" },
      sender: { login: "writer" },
    });
    expect(Object.keys(ctx.event).sort()).toEqual(["inputs", "ref", "repository", "sender", "workflow"]);
    expect(ctx.event.inputs.undeclared).toBeUndefined();
    expect(ctx.ref).toBe("refs/heads/main");
    await runner.runTask(task!, { steps: [{}] });
  });

  test("a full ref and no inputs: every input takes its default", async () => {
    expect(
      (await t.json("POST", `${API}/repos/alice/ci/actions/workflows/deploy.yaml/dispatches`, { token: tok.alice, body: { ref: "refs/heads/main" } })).status,
    ).toBe(204);
    const [run] = await runsOf("deploy.yaml");
    expect(run.display_title).toBe("deploy to staging");
    const task = (await runner.fetchTask()).task!;
    expect((task.context as Record<string, any>).event.inputs).toEqual({ target: "staging", debug: "false", note: "" });
    await runner.runTask(task, { steps: [{}] });
  });

  test("a form-encoded dispatch reads its inputs from `inputs[name]` fields, as Gitea's handler does", async () => {
    const res = await t.request("POST", `${API}/repos/alice/ci/actions/workflows/deploy.yaml/dispatches`, {
      token: tok.alice,
      body: "ref=main&inputs%5Btarget%5D=production&inputs%5Bnote%5D=from+a+form",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(204);
    await settledActions(t);
    const task = (await runner.fetchTask()).task!;
    expect((task.context as Record<string, any>).event.inputs).toEqual({ target: "production", debug: "false", note: "from a form" });
    await runner.runTask(task, { steps: [{}] });
  });

  test("refusals in Gitea's words: no ref (422), an unknown ref or workflow (404), a disabled workflow (403)", async () => {
    const dispatch = (workflow: string, body: unknown, token = tok.writer) =>
      t.json("POST", `${API}/repos/alice/ci/actions/workflows/${workflow}/dispatches`, { token, body });
    expect((await dispatch("deploy.yaml", {})).status).toBe(422);
    expect((await dispatch("deploy.yaml", { ref: "" })).status).toBe(422);
    const noRef = await dispatch("deploy.yaml", { ref: "nope" });
    expect(noRef.status).toBe(404);
    expect(noRef.body.message).toBe('ref "nope" doesn\'t exist');
    const noWorkflow = await dispatch("missing.yml", { ref: "main" });
    expect(noWorkflow.status).toBe(404);
    expect(noWorkflow.body.message).toBe('workflow "missing.yml" doesn\'t exist');
    await t.ok("PUT", `${API}/repos/alice/ci/actions/workflows/deploy.yaml/disable`, tok.alice, undefined, 204);
    const disabled = await dispatch("deploy.yaml", { ref: "main" });
    expect(disabled.status).toBe(403);
    expect(disabled.body.message).toBe("workflow is disabled");
    await t.ok("PUT", `${API}/repos/alice/ci/actions/workflows/deploy.yaml/enable`, tok.alice, undefined, 204);
    const before = (await runsOf("deploy.yaml")).length;
    const refused = await dispatch("deploy.yaml", { ref: "main" }, tok.reader);
    expect(refused.status).toBe(403);
    expect((await dispatch("deploy.yaml", { ref: "main" }, "")).status).toBe(401);
    expect((await runsOf("deploy.yaml")).length).toBe(before);
  });
});
