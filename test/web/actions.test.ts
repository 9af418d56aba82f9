import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { CI_WORKFLOW, ownerRunner, pushFiles, runNextTask, waitForRuns } from "../support/actions-pages.ts";
import type { MockRunner } from "../support/mock-runner.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import { ActionStatus } from "../../src/db/schema/index.ts";
import { jobsOfRun, runByIndex } from "../../src/models/actions-run.ts";

/**
 * The Actions pages, black box: workflows pushed with git start runs, a runner speaking
 * act_runner's protocol runs their jobs, and the pages show the runs, jobs, steps and log rows;
 * private runs stay hidden, and the cancel and re-run buttons work for writers only.
 */
const t = makeTestApp("", { listen: true });
const anon = new WebClient(t);
let owner: WebClient;
let reader: WebClient;
let repoId: number;
let privateRepoId: number;
let runner: MockRunner;
let aliceToken: string;

const hrefs = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));

beforeAll(async () => {
  const alice = await t.user("alice");
  await t.user("bob");
  const token = (aliceToken = t.token(alice));
  for (const [name, isPrivate] of [["tools", false], ["secret", true]] as const) {
    await t.ok("POST", "/api/v1/user/repos", token, { name, auto_init: true, private: isPrivate }, 201);
  }
  // bob may read tools (a collaborator with read access), nothing more.
  await t.ok("PUT", "/api/v1/repos/alice/tools/collaborators/bob", token, { permission: "read" }, 204);
  repoId = (await t.ok("GET", "/api/v1/repos/alice/tools", token)).id;
  privateRepoId = (await t.ok("GET", "/api/v1/repos/alice/secret", token)).id;
  owner = await signedIn(t, "alice");
  reader = await signedIn(t, "bob");

  runner = await ownerRunner(t, alice.id);

  await pushFiles(t, "alice", "tools", { ".gitea/workflows/ci.yml": CI_WORKFLOW, ".gitea/workflows/broken.yml": "jobs: [\n" }, "Add CI <b>now</b>");
  await waitForRuns(t, repoId, 1);
  await runNextTask(t, runner, {
    setupLines: ["act_runner version v0.2.13", "\x1b[1;32mContainer ready\x1b[0m"],
    steps: [{ lines: ["building <script>alert(1)</script>", "\x1b[31mred warning\x1b[0m"] }, { lines: ["::group::Details", "inside the group", "::endgroup::"] }],
    teardownLines: ["Cleaning up"],
  });
  await runNextTask(t, runner, { steps: [{ lines: ["1 test failed"], result: "failure" }] });
});

describe("the runs list", () => {
  test("shows the run with its state, workflow, event, ref, commit and actor; the sidebar lists the workflows", async () => {
    const page = await anon.page("/alice/tools/actions");
    const text = visibleText(page);
    expect(text).toContain("Add CI <b>now</b>");
    expect(page).not.toContain("<b>now</b>");
    expect(text).toMatch(/ci\.yml #1: Commit [0-9a-f]{10} pushed by alice event push/);
    expect(text).toContain("Failure");
    expect(hrefs(page)).toContain("/alice/tools/actions/runs/1");
    expect(hrefs(page)).toContain("/alice/tools/src/branch/main");
    expect(hrefs(page)).toContain("/alice/tools/actions?workflow=ci.yml");
    expect(hrefs(page)).toContain("/alice/tools/actions?workflow=broken.yml");
    expect(text).toMatch(/broken\.yml Invalid/);
    // The repository's Actions tab is current.
    expect(page).toMatch(/<a href="\/alice\/tools\/actions" aria-current="page">Actions<\/a>/);
  });

  test("filters by workflow, actor and status", async () => {
    const alice = (await t.ok("GET", "/api/v1/users/alice", undefined)).id as number;
    expect(visibleText(await anon.page("/alice/tools/actions?workflow=broken.yml"))).toContain("No runs yet.");
    expect(visibleText(await anon.page("/alice/tools/actions?workflow=ci.yml"))).toContain("Add CI");
    expect(visibleText(await anon.page(`/alice/tools/actions?actor=${alice}`))).toContain("Add CI");
    expect(visibleText(await anon.page(`/alice/tools/actions?actor=${alice + 100}`))).toContain("No runs match these filters.");
    expect(visibleText(await anon.page(`/alice/tools/actions?status=${ActionStatus.Failure}`))).toContain("Add CI");
    expect(visibleText(await anon.page(`/alice/tools/actions?status=${ActionStatus.Success}`))).toContain("No runs match these filters.");
    // Junk filters are "all", as Gitea's FormInt reads them.
    expect(visibleText(await anon.page("/alice/tools/actions?status=abc&actor=-1&page=zz"))).toContain("Add CI");
  });

  test("pages through runs", async () => {
    const first = await anon.page("/alice/tools/actions?page=1");
    expect(first).not.toContain('rel="next"');
    expect(visibleText(await anon.page("/alice/tools/actions?page=2"))).toContain("No runs yet.");
  });
});

describe("a run", () => {
  test("shows its jobs and their states, the event, commit and branch", async () => {
    const page = await anon.page("/alice/tools/actions/runs/1");
    const text = visibleText(page);
    expect(text).toContain("Add CI <b>now</b>");
    expect(text).toMatch(/build Success/);
    expect(text).toMatch(/test needs build Failure/);
    expect(text).toMatch(/Triggered via push/);
    expect(hrefs(page)).toContain("/alice/tools/actions/runs/1/jobs/0");
    expect(hrefs(page)).toContain("/alice/tools/actions/runs/1/jobs/1");
    const run = runByIndex(t.env.db, repoId, 1)!;
    expect(hrefs(page)).toContain(`/alice/tools/commit/${run.commitSha}`);
    // A finished run does not reload itself, even when asked; the anonymous get no buttons.
    expect(await anon.page("/alice/tools/actions/runs/1?refresh=1")).not.toContain('http-equiv="refresh"');
    expect(page).not.toContain("/actions/runs/1/rerun");
    expect(await anon.page("/alice/tools/actions/runs/latest")).toContain("Add CI");
  });

  test("a run or job that is not there is a 404", async () => {
    await anon.page("/alice/tools/actions/runs/99", 404);
    await anon.page("/alice/tools/actions/runs/abc", 404);
    await anon.page("/alice/tools/actions/runs/1/jobs/7", 404);
    await anon.page("/alice/tools/actions/runs/1/jobs/x", 404);
  });
});

describe("a job", () => {
  test("shows its steps with durations and states, and each step's log rows escaped with colours as classes", async () => {
    const page = await anon.page("/alice/tools/actions/runs/1/jobs/0");
    const text = visibleText(page);
    // Gitea's FullSteps: set-up and clean-up around the workflow's steps.
    expect(text).toMatch(/Set up job.*echo build.*echo check.*Complete job/s);
    expect(text).toContain("act_runner version v0.2.13");
    expect(page).toContain('<span class="ansi-fg-2 ansi-bold">Container ready</span>');
    expect(page).toContain("building &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).not.toContain("<script>alert(1)");
    expect(page).toContain('<span class="ansi-fg-1">red warning</span>');
    expect(page).not.toContain("\x1b");
    expect(text).toContain("Cleaning up");
    // The group marker is a heading, its end marker invisible.
    expect(page).toContain('<span class="log-group">Details</span>');
    expect(text).not.toContain("::endgroup::");
    // Rows are anchored by step and line: the second step's first row.
    expect(page).toContain('id="jobstep-1-1"');
    expect(page).toContain('href="#jobstep-1-1"');
    // Each row in the step it belongs to.
    const step1 = page.slice(page.indexOf('id="jobstep-1"'), page.indexOf('id="jobstep-2"'));
    expect(step1).toContain("building");
    expect(step1).not.toContain("inside the group");
    expect(hrefs(page)).toContain("/alice/tools/actions/runs/1/jobs/0/logs");
  });

  test("a failed step is open; the job's page links the run's other jobs", async () => {
    const page = await anon.page("/alice/tools/actions/runs/1/jobs/1");
    expect(page).toMatch(/<details class="step" id="jobstep-1" open>/);
    expect(visibleText(page)).toContain("1 test failed");
    expect(page).toMatch(/href="\/alice\/tools\/actions\/runs\/1\/jobs\/1" aria-current="page"/);
  });

  test("the raw log downloads as text", async () => {
    const res = await anon.get("/alice/tools/actions/runs/1/jobs/0/logs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/plain");
    expect(res.headers.get("content-disposition")).toContain("ci-build-");
    const body = await res.text();
    expect(body).toContain("building <script>alert(1)</script>");
    expect(body.split("\n")[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z act_runner version/);
  });
});

describe("a long log and a disabled workflow", () => {
  const ONE_JOB = "on: push\njobs:\n  long:\n    runs-on: ubuntu-latest\n    steps:\n      - run: yes | head -n 5003\n";
  let bigId: number;
  beforeAll(async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "big", auto_init: true }, 201);
    bigId = (await t.ok("GET", "/api/v1/repos/alice/big", aliceToken)).id;
    await pushFiles(t, "alice", "big", { ".github/workflows/long.yaml": ONE_JOB }, "Long output");
    await waitForRuns(t, bigId, 1);
    await runNextTask(t, runner, { steps: [{ lines: Array.from({ length: 5003 }, (_, i) => `row ${i + 1}`) }] });
  });

  test("a step shows its last 5000 rows, numbered as in the whole step, and links the full log", async () => {
    const page = await anon.page("/alice/big/actions/runs/1/jobs/0");
    const text = visibleText(page);
    expect(text).toContain("The first 3 lines of this step are not shown here; the full log has them.");
    expect(page).not.toContain(">row 3<");
    expect(page).toContain('<tr id="jobstep-1-4"><td class="ln"><a href="#jobstep-1-4">4</a>');
    expect(text).toContain("row 5003");
    expect(hrefs(page)).toContain("/alice/big/actions/runs/1/jobs/0/logs");
    const raw = await (await anon.get("/alice/big/actions/runs/1/jobs/0/logs")).text();
    expect(raw).toContain(" row 1\n");
    expect(raw.trimEnd().split("\n").length).toBe(5003);
  });

  test("an administrator disables a workflow: the list says so and its run is not re-run; enabling undoes it", async () => {
    const list = await owner.page("/alice/big/actions?workflow=long.yaml");
    expect(list).toContain('action="/alice/big/actions/disable?workflow=long.yaml"');
    expect(await anon.page("/alice/big/actions?workflow=long.yaml")).not.toContain("/actions/disable");
    let res = await owner.post("/alice/big/actions/disable?workflow=long.yaml", {});
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/alice/big/actions?workflow=long.yaml");
    const disabled = visibleText(await owner.page("/alice/big/actions?workflow=long.yaml"));
    expect(disabled).toContain("Workflow disabled successfully.");
    expect(disabled).toMatch(/long\.yaml Disabled/);
    expect(disabled).toContain("This workflow is disabled");
    res = await owner.post("/alice/big/actions/runs/1/rerun", {});
    expect(res.status).toBe(303);
    expect(visibleText(await owner.page("/alice/big/actions/runs/1"))).toContain("This workflow is disabled.");
    expect(runByIndex(t.env.db, bigId, 1)!.status).toBe(ActionStatus.Success);
    expect(await owner.page("/alice/big/actions?workflow=long.yaml")).toContain('action="/alice/big/actions/enable?workflow=long.yaml"');
    res = await owner.post("/alice/big/actions/enable?workflow=long.yaml", {});
    expect(res.status).toBe(303);
    expect(visibleText(await owner.page("/alice/big/actions"))).not.toMatch(/long\.yaml Disabled/);
    // Nothing named, nothing switched.
    res = await owner.post("/alice/big/actions/disable", {});
    expect(res.status).toBe(303);
    expect(visibleText(await owner.page("/alice/big/actions"))).toContain("No workflow was named.");
  });

  test("only an administrator switches a workflow", async () => {
    for (const client of [reader, anon]) {
      const res = await client.post("/alice/tools/actions/disable?workflow=ci.yml", {});
      expect(res.status === 403 || res.status === 404 || (client === anon && res.status === 303 && res.headers.get("location")!.includes("/user/login"))).toBe(true);
    }
    expect(visibleText(await anon.page("/alice/tools/actions"))).not.toMatch(/ci\.yml Disabled/);
  });
});

describe("access", () => {
  test("a private repository's runs are hidden from those who cannot read it", async () => {
    await pushFiles(t, "alice", "secret", { ".gitea/workflows/ci.yml": CI_WORKFLOW }, "Secret work");
    await waitForRuns(t, privateRepoId, 1);
    for (const path of ["/alice/secret/actions", "/alice/secret/actions/runs/1", "/alice/secret/actions/runs/1/jobs/0", "/alice/secret/actions/runs/1/jobs/0/logs"]) {
      const res = await anon.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      const other = await reader.get(path);
      expect({ path, status: other.status }).toEqual({ path, status: 404 });
    }
    expect(visibleText(await owner.page("/alice/secret/actions"))).toContain("Secret work");
  });

  test("the Actions tab shows only where the unit is on", async () => {
    expect(await anon.page("/alice/tools")).toContain('href="/alice/tools/actions"');
    const token = aliceToken;
    await t.ok("POST", "/api/v1/user/repos", token, { name: "plain", auto_init: true }, 201);
    await t.ok("PATCH", "/api/v1/repos/alice/plain", token, { has_actions: false }, 200);
    expect(await anon.page("/alice/plain")).not.toContain('href="/alice/plain/actions"');
    await anon.page("/alice/plain/actions", 404);
  });

  test("cancel and re-run are refused to readers and change nothing", async () => {
    const readerPage = await reader.page("/alice/tools/actions/runs/1");
    expect(readerPage).not.toContain("Re-run");
    for (const path of ["/alice/tools/actions/runs/1/rerun", "/alice/tools/actions/runs/1/jobs/1/rerun", "/alice/tools/actions/runs/1/cancel"]) {
      for (const client of [reader, anon]) {
        const res = await client.post(path, {});
        expect(res.status === 403 || res.status === 404 || (client === anon && res.status === 303 && res.headers.get("location")!.includes("/user/login"))).toBe(true);
      }
    }
    expect(runByIndex(t.env.db, repoId, 1)!.status).toBe(ActionStatus.Failure);
  });

  test("a writer re-runs the run and cancels it", async () => {
    const before = await owner.page("/alice/tools/actions/runs/1");
    expect(before).toContain('action="/alice/tools/actions/runs/1/rerun"');
    expect(before).toContain('action="/alice/tools/actions/runs/1/jobs/1/rerun"');
    expect(before).not.toContain('action="/alice/tools/actions/runs/1/cancel"');
    const run = runByIndex(t.env.db, repoId, 1)!;

    let res = await owner.post("/alice/tools/actions/runs/1/rerun", {});
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/alice/tools/actions/runs/1");
    expect(jobsOfRun(t.env.db, run.id).map((j) => j.status)).toEqual([ActionStatus.Waiting, ActionStatus.Blocked]);

    // While it runs again, the page offers Cancel and to reload itself (a meta refresh, asked for); a job not picked up says so.
    const running = await owner.page("/alice/tools/actions/runs/1");
    expect(running).not.toContain('http-equiv="refresh"');
    expect(hrefs(running)).toContain("/alice/tools/actions/runs/1?refresh=1");
    const watched = await owner.page("/alice/tools/actions/runs/1/jobs/0?refresh=1");
    expect(watched).toContain('<meta http-equiv="refresh" content="5">');
    expect(visibleText(watched)).toContain("Stop reloading");
    expect(running).toContain('action="/alice/tools/actions/runs/1/cancel"');
    expect(running).not.toContain('action="/alice/tools/actions/runs/1/rerun"');
    expect(visibleText(running)).toContain("All jobs of the run will run again.");
    expect(visibleText(await owner.page("/alice/tools/actions/runs/1/jobs/1"))).toContain("This job waits for the jobs it needs.");
    expect(visibleText(await owner.page("/alice/tools/actions/runs/1/jobs/0"))).toContain("Waiting for a runner to pick up this job.");
    // Re-running what has not finished is refused with a message, not an error page.
    res = await owner.post("/alice/tools/actions/runs/1/rerun", {});
    expect(res.status).toBe(303);
    expect(visibleText(await owner.page("/alice/tools/actions/runs/1"))).toContain("only a finished run or job can be re-run");

    res = await owner.post("/alice/tools/actions/runs/1/cancel", {});
    expect(res.status).toBe(303);
    expect(runByIndex(t.env.db, repoId, 1)!.status).toBe(ActionStatus.Cancelled);
    expect(jobsOfRun(t.env.db, run.id).map((j) => j.status)).toEqual([ActionStatus.Cancelled, ActionStatus.Cancelled]);
  });

  test("a writer re-runs one job and the jobs that need it", async () => {
    const run = runByIndex(t.env.db, repoId, 1)!;
    const res = await owner.post("/alice/tools/actions/runs/1/jobs/0/rerun", {});
    expect(res.status).toBe(303);
    expect(visibleText(await owner.page("/alice/tools/actions/runs/1"))).toContain("The job will run again.");
    expect(jobsOfRun(t.env.db, run.id).map((j) => j.status)).toEqual([ActionStatus.Waiting, ActionStatus.Blocked]);
  });

  test("a cross-site form is refused", async () => {
    const before = runByIndex(t.env.db, repoId, 1)!.status;
    const res = await owner.post("/alice/tools/actions/runs/1/cancel", {}, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(runByIndex(t.env.db, repoId, 1)!.status).toBe(before);
    expect(before).not.toBe(ActionStatus.Cancelled);
  });
});

// Last: the owner's junk posts may restart job 0 of the run.
describe("malformed input on a repository with runs", () => {
  const BAD = ["-1", "0", "1.5", "abc", "%00", "99999999999999999999", "x".repeat(2000), "..%2f..", "latest"];
  test("run and job numbers, queries and forms never answer a 5xx or a server path", async () => {
    const paths: string[] = [];
    for (const v of BAD) {
      paths.push(`/alice/tools/actions/runs/${v}`, `/alice/tools/actions/runs/${v}/jobs/0`, `/alice/tools/actions/runs/1/jobs/${v}`, `/alice/tools/actions/runs/1/jobs/${v}/logs`);
      paths.push(`/alice/tools/actions?workflow=${v}&actor=${v}&status=${v}&page=${v}`);
    }
    const bad: string[] = [];
    for (const client of [owner, anon]) {
      for (const path of paths) {
        const res = await client.get(path);
        const body = await res.text();
        if (res.status >= 500 || /\/tmp\/|hearth-test-/.test(body)) bad.push(`GET ${res.status} ${path.slice(0, 100)}`);
      }
      for (const v of BAD.slice(0, 6)) {
        for (const path of [`/alice/tools/actions/runs/${v}/cancel`, `/alice/tools/actions/runs/${v}/rerun`, `/alice/tools/actions/runs/1/jobs/${v}/rerun`]) {
          const res = await client.post(path, { junk: "%00", job: "-1" });
          if (res.status >= 500) bad.push(`POST ${res.status} ${path.slice(0, 100)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe("Actions switched off for the site", () => {
  const off = makeTestApp("[actions]\nENABLED = false\n");
  test("the pages are not there", async () => {
    const carol = await off.user("carol");
    await off.ok("POST", "/api/v1/user/repos", off.token(carol), { name: "r", auto_init: true }, 201);
    const web = new WebClient(off);
    await web.page("/carol/r/actions", 404);
    await web.page("/carol/r/actions/runs/1", 404);
  });
});
