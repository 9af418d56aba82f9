import { expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { putFile } from "../support/actions.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { registrationToken } from "../../src/services/actions/runners.ts";

/**
 * A job's GITEA_TOKEN has the `permissions:` its workflow or the job itself states, unit by unit,
 * never more than write on the run's repository.
 */
const t = makeTestApp("", { listen: true });
const alice = await t.user("alice");
const token = t.token(alice);
await t.ok("POST", "/api/v1/user/repos", token, { name: "p", auto_init: true }, 201);
const repo = await t.ok("GET", "/api/v1/repos/alice/p", token);
const runner = await MockRunner.register(t.baseUrl, { token: registrationToken(t.env, { repoId: repo.id }), name: "r", labels: ["ubuntu-latest"] });

const WORKFLOW = `on: push
permissions:
  contents: read
  issues: write
jobs:
  narrow:
    runs-on: ubuntu-latest
    steps:
      - run: echo
  readonly:
    runs-on: ubuntu-latest
    permissions: read-all
    steps:
      - run: echo
`;

test("the workflow's permissions, and a job's own over them", async () => {
  await putFile(t, "alice/p", ".gitea/workflows/perms.yml", WORKFLOW, token, "perms");
  const tokens = new Map<string, string>();
  for (let task = (await runner.fetchTask()).task; task; task = (await runner.fetchTask()).task) {
    const ctx = task.context as Record<string, any>;
    tokens.set(ctx.job, ctx.token);
  }
  const narrow = tokens.get("narrow")!;
  const readonly = tokens.get("readonly")!;
  expect((await t.json("GET", "/api/v1/repos/alice/p/contents/README.md", { token: narrow })).status).toBe(200);
  expect((await t.json("POST", "/api/v1/repos/alice/p/branches", { token: narrow, body: { new_branch_name: "x" } })).status).toBe(403);
  expect((await t.json("POST", "/api/v1/repos/alice/p/labels", { token: narrow, body: { name: "bug", color: "#ff0000" } })).status).toBe(201);
  expect((await t.json("POST", "/api/v1/repos/alice/p/labels", { token: readonly, body: { name: "feature", color: "#00ff00" } })).status).toBe(403);
  expect((await t.json("GET", "/api/v1/repos/alice/p/labels", { token: readonly })).status).toBe(200);
});
