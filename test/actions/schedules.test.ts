import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { putFile as putRepoFile, settled as settledActions } from "../support/actions.ts";
import { listRuns, jobsOfRun, setWorkflowDisabled } from "../../src/models/actions-run.ts";
import { schedulesOfRepo, specsOfRepo } from "../../src/models/actions-schedule.ts";
import { actionsTick } from "../../src/services/actions/tick.ts";
import { cleanRepoSchedules, schedulesAfter, scheduleSpecs } from "../../src/services/actions/schedules.ts";
import { actionsBot } from "../../src/services/actions/bot.ts";
import { getRepoById } from "../../src/models/repo.ts";
import { writeTx } from "../../src/db/client.ts";
import { nextRun } from "../../src/lib/actions/cron.ts";
import { ActionStatus } from "../../src/db/schema/index.ts";

/**
 * Scheduled workflows (Gitea's handleSchedules and StartScheduleTasks): a push to the default
 * branch remembers the workflows with `on: schedule` at that commit; the cron tick, called here
 * with the time it runs at, starts each due spec's workflow as the Actions bot and moves the spec
 * on. Specs are yearly, so the server's own tick (real time) never finds one due.
 */
const t = makeTestApp();
const alice = await t.user("alice");
const token = t.token(alice);
await t.ok("POST", "/api/v1/user/repos", token, { name: "nightly", auto_init: true }, 201);
const repo = await t.ok("GET", "/api/v1/repos/alice/nightly", token);

const settled = () => settledActions(t);
const b64 = (s: string) => Buffer.from(s).toString("base64");
const putFile = (path: string, content: string, message: string, branch?: string) => putRepoFile(t, "alice/nightly", path, content, token, message, branch);

const runs = () => listRuns(t.env.db, { repoId: repo.id }, { offset: 0, limit: 100 }).rows;

const NIGHTLY = `name: Nightly
on:
  schedule:
    - cron: "0 3 1 1 *"
    - cron: "not a cron"
    - cron: "TZ=Europe/Berlin 30 4 2 1 *"
  workflow_dispatch:
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo nightly \${{ github.event.schedule }}
`;

const ON_PUSH = `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: echo push
`;

describe("scheduled workflows", () => {
  let sha = "";

  test("the cron lines of on.schedule, as act's OnSchedule reads them", () => {
    expect(scheduleSpecs(NIGHTLY)).toEqual(["0 3 1 1 *", "not a cron", "TZ=Europe/Berlin 30 4 2 1 *"]);
    expect(scheduleSpecs(ON_PUSH)).toEqual([]);
  });

  test("a push to the default branch remembers the scheduled workflows of its commit; bad cron lines are left out", async () => {
    await putFile(".gitea/workflows/push.yml", ON_PUSH, "push workflow");
    const before = Math.floor(Date.now() / 1000);
    sha = await putFile(".gitea/workflows/nightly.yml", NIGHTLY, "add nightly");
    const schedules = schedulesOfRepo(t.env.db, repo.id);
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({
      workflowId: "nightly.yml",
      workflowDir: ".gitea/workflows",
      commitSha: sha,
      ref: "refs/heads/main",
      triggerUserId: -2,
      title: "add nightly",
      ownerId: alice.id,
    });
    expect(JSON.parse(schedules[0]!.eventPayload)).toMatchObject({ ref: "refs/heads/main", after: sha });
    const specs = specsOfRepo(t.env.db, repo.id);
    expect(specs.map((s) => s.spec)).toEqual(["0 3 1 1 *", "TZ=Europe/Berlin 30 4 2 1 *"]);
    const next = specs[0]!.nextUnix;
    expect(next).toBeGreaterThan(before);
    expect(new Date(next * 1000).toISOString()).toMatch(/-01-01T03:00:00\.000Z$/);
    // 04:30 in Berlin on 2 January is 03:30 UTC (winter time).
    expect(new Date(specs[1]!.nextUnix * 1000).toISOString()).toMatch(/-01-02T03:30:00\.000Z$/);
  });

  test("the tick starts nothing before a spec is due", async () => {
    const [spec] = specsOfRepo(t.env.db, repo.id);
    const count = runs().length;
    expect((await actionsTick(t.env, spec!.nextUnix - 1)).scheduled).toBe(0);
    expect(runs().length).toBe(count);
  });

  test("a due spec starts its workflow at the remembered commit, as the bot, with github.event.schedule", async () => {
    const [spec] = specsOfRepo(t.env.db, repo.id);
    const due = spec!.nextUnix;
    const count = runs().length;
    expect((await actionsTick(t.env, due + 5)).scheduled).toBe(1);
    const all = runs();
    expect(all.length).toBe(count + 1);
    const run = all[0]!;
    expect(run).toMatchObject({
      workflowId: "nightly.yml",
      commitSha: sha,
      ref: "refs/heads/main",
      event: "schedule",
      triggerEvent: "schedule",
      triggerUserId: -2,
      scheduleId: schedulesOfRepo(t.env.db, repo.id)[0]!.id,
      status: ActionStatus.Waiting,
    });
    const payload = JSON.parse(run.eventPayload);
    expect(payload.schedule).toBe("0 3 1 1 *");
    expect(payload.after).toBe(sha);
    expect(jobsOfRun(t.env.db, run.id).map((j) => [j.jobId, j.status])).toEqual([["build", ActionStatus.Waiting]]);
    // The spec moved on (Gitea's Next(now + 1m)): the same minute starts nothing more.
    const moved = specsOfRepo(t.env.db, repo.id)[0]!;
    expect(moved.prevUnix).toBe(due);
    expect(moved.nextUnix).toBe(nextRun("0 3 1 1 *", due + 5 + 60));
    expect((await actionsTick(t.env, due + 30)).scheduled).toBe(0);
    expect(runs().length).toBe(count + 1);
  });

  test("a push to another branch leaves the schedules alone", async () => {
    await t.ok("POST", "/api/v1/repos/alice/nightly/branches", token, { new_branch_name: "dev", old_branch_name: "main" }, 201);
    await putFile(".gitea/workflows/nightly.yml", NIGHTLY.replace("0 3 1 1 *", "0 5 1 1 *"), "dev nightly", "dev");
    expect(specsOfRepo(t.env.db, repo.id).map((s) => s.spec)).toEqual(["0 3 1 1 *", "TZ=Europe/Berlin 30 4 2 1 *"]);
    expect(schedulesOfRepo(t.env.db, repo.id)[0]!.commitSha).toBe(sha);
  });

  test("a push that asks to skip CI leaves them alone too", async () => {
    await putFile("README.md", "skipped\n", "docs [skip ci]");
    expect(schedulesOfRepo(t.env.db, repo.id)[0]!.commitSha).toBe(sha);
  });

  test("a switched-off workflow or repository starts nothing, and its spec still moves on", async () => {
    writeTx(t.env.db, (tx) => setWorkflowDisabled(tx, repo.id, "nightly.yml", true));
    let spec = specsOfRepo(t.env.db, repo.id)[0]!;
    const count = runs().length;
    expect((await actionsTick(t.env, spec.nextUnix)).scheduled).toBe(0);
    expect(runs().length).toBe(count);
    expect(specsOfRepo(t.env.db, repo.id)[0]!.nextUnix).toBeGreaterThan(spec.nextUnix);
    writeTx(t.env.db, (tx) => setWorkflowDisabled(tx, repo.id, "nightly.yml", false));

    await t.ok("PATCH", "/api/v1/repos/alice/nightly", token, { has_actions: false });
    spec = specsOfRepo(t.env.db, repo.id)[0]!;
    expect((await actionsTick(t.env, spec.nextUnix)).scheduled).toBe(0);
    expect(runs().length).toBe(count);
    await t.ok("PATCH", "/api/v1/repos/alice/nightly", token, { has_actions: true });
    // Both lines are due by then: each starts its run.
    const due = Math.max(...specsOfRepo(t.env.db, repo.id).map((s) => s.nextUnix));
    expect((await actionsTick(t.env, due)).scheduled).toBe(2);
    expect(runs().slice(0, 2).map((r) => JSON.parse(r.eventPayload).schedule).sort()).toEqual(["0 3 1 1 *", "TZ=Europe/Berlin 30 4 2 1 *"]);
  });

  test("the bot's push refreshes the schedules from the branch's tip (it starts no run)", async () => {
    // As Gitea's DetectAndHandleSchedules: the tip, with no event payload.
    const newer = await putFile("notes.txt", "x\n", "unrelated change");
    const current = getRepoById(t.env.db, repo.id)!;
    await schedulesAfter(t.env, {
      event: "push",
      payload: { ref: "refs/heads/main", after: newer, head_commit: { message: "bot" } },
      repo: current,
      owner: alice,
      branch: "main",
      doer: actionsBot(),
    });
    const [schedule] = schedulesOfRepo(t.env.db, repo.id);
    expect(schedule!.commitSha).toBe(newer);
    expect(schedule!.eventPayload).toBe("null");
  });

  test("a push that drops on.schedule drops the schedules", async () => {
    await putFile(".gitea/workflows/nightly.yml", ON_PUSH, "no more nightly");
    expect(schedulesOfRepo(t.env.db, repo.id)).toEqual([]);
    expect(specsOfRepo(t.env.db, repo.id)).toEqual([]);
  });

  test("a repository announced as created with scheduled workflows has them at once; a deleted one loses them", async () => {
    await t.ok("POST", "/api/v1/user/repos", token, { name: "other", auto_init: true }, 201);
    const put = await t.json("POST", "/api/v1/repos/alice/other/contents/.gitea/workflows/nightly.yml", {
      token,
      body: { content: b64(NIGHTLY), message: "nightly" },
    });
    expect(put.status).toBe(201);
    await settled();
    const other = getRepoById(t.env.db, (await t.ok("GET", "/api/v1/repos/alice/other", token)).id)!;
    expect(specsOfRepo(t.env.db, other.id)).toHaveLength(2);
    // As a repository made from a template or migrated with its content is announced.
    cleanRepoSchedules(t.env, other.id);
    await schedulesAfter(t.env, { event: "repository", payload: { action: "created" }, repo: other, owner: alice, doer: alice });
    expect(schedulesOfRepo(t.env.db, other.id).map((s) => [s.workflowId, s.eventPayload])).toEqual([["nightly.yml", "null"]]);
    expect((await t.request("DELETE", "/api/v1/repos/alice/other", { token })).status).toBe(204);
    await settled();
    expect(schedulesOfRepo(t.env.db, other.id)).toEqual([]);
    expect(specsOfRepo(t.env.db, other.id)).toEqual([]);
  });
});
