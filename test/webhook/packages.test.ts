import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { listHookTasks } from "../../src/models/webhook.ts";

/**
 * The `package` webhook event (Gitea's PackageCreate and PackageDelete): a version created by its
 * first file and a removed version fire Gitea's PackagePayload to the hooks that chose `package`
 * (the owner's, and the linked repository's once the package is linked), and to no other.
 */
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
afterAll(() => receiver.stop(true));
const t = makeTestApp("[webhook]\nALLOWED_HOST_LIST = loopback\n");
const alice = await t.user("alice");
const token = t.token(alice);

const hookBody = (events: string[]) => ({ type: "gitea", config: { url: `http://127.0.0.1:${receiver.port}/hook`, content_type: "json" }, events, active: true });
const packageHook = (await t.ok("POST", "/api/v1/user/hooks", token, hookBody(["package"]), 201)).id as number;
const pushHook = (await t.ok("POST", "/api/v1/user/hooks", token, hookBody(["push", "release"]), 201)).id as number;

const seen = new Map<number, number>();
/** The hook's tasks since the last look, oldest first, once the event bus has handed them over. */
async function newTasks(hookId: number, want = 1): Promise<{ event: string; payload: any }[]> {
  let rows: ReturnType<typeof listHookTasks>["rows"] = [];
  for (let i = 0; i < 100; i++) {
    await t.env.queue.idle();
    rows = listHookTasks(t.env.db, hookId, { offset: 0, limit: 100 }).rows.filter((r) => r.id > (seen.get(hookId) ?? 0));
    if (rows.length >= want) break;
    await Bun.sleep(10);
  }
  if (rows[0]) seen.set(hookId, rows[0].id);
  return rows.reverse().map((r) => ({ event: r.eventType, payload: JSON.parse(r.payloadContent) }));
}

const put = (path: string, body: string) =>
  t.request("PUT", `/api/packages/alice/generic/${path}`, { token, body, headers: { "Content-Type": "application/octet-stream" } });

describe("package webhook event", () => {
  test("a new version fires `created` with Gitea's PackagePayload; a second file of the version fires nothing", async () => {
    expect((await put("tool/1.0/a.bin", "a")).status).toBe(201);
    expect((await put("tool/1.0/b.bin", "b")).status).toBe(201);
    const tasks = await newTasks(packageHook);
    expect(tasks.map((x) => [x.event, x.payload.action])).toEqual([["package", "created"]]);
    const p = tasks[0]!.payload;
    expect(Object.keys(p).sort()).toEqual(["action", "organization", "package", "repository", "sender"]);
    expect(p.repository).toBeNull();
    expect(p.organization).toBeNull();
    expect(p.sender.login).toBe("alice");
    expect(p.package).toMatchObject({ type: "generic", name: "tool", version: "1.0", repository: null, owner: { login: "alice" }, creator: { login: "alice" } });
    expect(p.package.html_url).toBe(`${ROOT_URL}alice/-/packages/generic/tool/1.0`);
    // The version's id, as the API shows it.
    expect(p.package.id).toBe((await t.ok("GET", "/api/v1/packages/alice/generic/tool/1.0", token)).id);
    // Nothing more came for the second file, and nothing to a hook that did not choose `package`.
    expect(await newTasks(packageHook, 1).then((ts) => ts.length)).toBe(0);
    expect(await newTasks(pushHook, 1).then((ts) => ts.length)).toBe(0);
  });

  test("deleting a version through the API or the registry fires `deleted` with the version as it was", async () => {
    await put("tool/2.0/a.bin", "a2");
    expect((await newTasks(packageHook)).map((x) => x.payload.action)).toEqual(["created"]);
    const id = (await t.ok("GET", "/api/v1/packages/alice/generic/tool/2.0", token)).id;

    expect((await t.request("DELETE", "/api/v1/packages/alice/generic/tool/2.0", { token })).status).toBe(204);
    let tasks = await newTasks(packageHook);
    expect(tasks.map((x) => [x.event, x.payload.action, x.payload.package.version, x.payload.package.id])).toEqual([["package", "deleted", "2.0", id]]);
    expect(tasks[0]!.payload.sender.login).toBe("alice");

    expect((await t.request("DELETE", "/api/packages/alice/generic/tool/1.0", { token })).status).toBe(204);
    tasks = await newTasks(packageHook);
    expect(tasks.map((x) => [x.payload.action, x.payload.package.name, x.payload.package.version])).toEqual([["deleted", "tool", "1.0"]]);
  });

  test("a linked package's events go to its repository's hooks too, with the repository in the package", async () => {
    await t.ok("POST", "/api/v1/user/repos", token, { name: "tools" }, 201);
    const repoHook = (await t.ok("POST", "/api/v1/repos/alice/tools/hooks", token, hookBody(["package"]), 201)).id as number;
    await put("linked/1/x.bin", "x");
    await newTasks(packageHook);
    expect((await t.request("POST", "/api/v1/packages/alice/generic/linked/-/link/tools", { token })).status).toBe(201);

    await put("linked/2/x.bin", "x2");
    const [repoTask] = await newTasks(repoHook);
    expect(repoTask).toMatchObject({ event: "package", payload: { action: "created", package: { name: "linked", version: "2", repository: { full_name: "alice/tools" } } } });
    // The owner's hook hears of it as well (Gitea's PrepareWebhooks: the repository's, then its owner's).
    expect((await newTasks(packageHook)).map((x) => x.payload.package.version)).toEqual(["2"]);
  });
});
