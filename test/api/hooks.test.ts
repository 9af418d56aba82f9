import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Hook } from "../../src/shapes/hook.ts";
import { getWebhook, hooksForRepo, listHookTasks } from "../../src/models/webhook.ts";
import { hookWants } from "../../src/services/webhook/hook-events.ts";
import { openAuthorization } from "../../src/services/webhook/auth-header.ts";

const t = makeTestApp();
const alice = await t.user("alice"); // owns alice/hr and the acme organization
const bob = await t.user("bob"); // reads alice/hr; member (not owner) of acme
const carol = await t.user("carol"); // nothing
const root = await t.user("root", { admin: true });
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const carolToken = t.token(carol);
const rootToken = t.token(root);

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "hr", auto_init: true }, 201);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "other", auto_init: true }, 201);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await t.ok("PUT", "/api/v1/repos/alice/hr/collaborators/bob", aliceToken, { permission: "read" }, 204);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "hidden", visibility: "private" }, 201);
const readers = await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "readers", permission: "read", units: ["repo.code"] }, 201);
await t.ok("PUT", `/api/v1/teams/${readers.id}/members/bob`, aliceToken, undefined, 204);

const repoHooks = (rest = "", repo = "alice/hr") => `/api/v1/repos/${repo}/hooks${rest}`;
// Loopback receivers that nothing listens on: a delivery attempt (if any runs) fails fast, never leaving the machine.
const URL_A = "http://127.0.0.1:9/a";
const URL_B = "http://127.0.0.1:9/b";
const gitea = (extra: Record<string, unknown> = {}, config: Record<string, string> = {}) => ({
  type: "gitea",
  config: { url: URL_A, content_type: "json", ...config },
  ...extra,
});
const create = (body: unknown, token = aliceToken, path = repoHooks()) => t.json("POST", path, { token, body });

describe("repository hooks", () => {
  test("create, get, list, edit and delete in Gitea's JSON; the secret is never returned", async () => {
    const r = await create(gitea({ active: true }, { secret: "s3cr3t" }));
    expect(r.status).toBe(201);
    expectShape(r.body, Hook);
    expect(r.body).toMatchObject({
      type: "gitea",
      config: { url: URL_A, content_type: "json" },
      events: ["push"],
      branch_filter: "",
      authorization_header: "",
      active: true,
    });
    expect(Object.keys(r.body.config).sort()).toEqual(["content_type", "url"]);
    expect(JSON.stringify(r.body)).not.toContain("s3cr3t");
    const id = r.body.id as number;
    const row = getWebhook(t.env.db, { repoId: await repoId("alice/hr") }, id)!;
    expect(row.secret).toBe("s3cr3t");
    expect(row.httpMethod).toBe("POST");

    expect(await t.ok("GET", repoHooks(`/${id}`), aliceToken)).toEqual(r.body);
    const list = await t.json("GET", repoHooks(), { token: aliceToken });
    expect(list.status).toBe(200);
    expect(list.headers.get("X-Total-Count")).toBe("1");
    expect(list.body).toEqual([r.body]);

    const e = await t.json("PATCH", repoHooks(`/${id}`), { token: aliceToken, body: { config: { url: URL_B, content_type: "form", secret: "new" }, events: ["create", "delete"], active: false } });
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ id, config: { url: URL_B, content_type: "form" }, events: ["create", "delete"], active: false });
    expect(getWebhook(t.env.db, { repoId: await repoId("alice/hr") }, id)!.secret).toBe("new");
    // Gitea's edit: no events means ["push"]; `active` left out keeps the old value.
    const e2 = await t.ok("PATCH", repoHooks(`/${id}`), aliceToken, {});
    expect(e2).toMatchObject({ events: ["push"], active: false, config: { url: URL_B } });

    expect((await t.json("DELETE", repoHooks(`/${id}`), { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", repoHooks(`/${id}`), { token: aliceToken })).status).toBe(404);
    expect((await t.json("DELETE", repoHooks(`/${id}`), { token: aliceToken })).status).toBe(404);
  });

  test("a hook is created inactive unless `active` is true (Gitea's default)", async () => {
    const r = await create(gitea());
    expect(r.body.active).toBe(false);
    await t.ok("DELETE", repoHooks(`/${r.body.id}`), aliceToken, undefined, 204);
  });

  test("401 without a token, 403 for a reader, 404 for a repository the caller cannot see or another repository's hook", async () => {
    const r = await create(gitea());
    const id = r.body.id;
    expect((await t.json("GET", repoHooks())).status).toBe(401);
    expect((await t.json("GET", repoHooks(`/${id}`), { token: bobToken })).status).toBe(403);
    expect((await create(gitea(), bobToken)).status).toBe(403);
    expect((await t.json("PATCH", repoHooks(`/${id}`), { token: bobToken, body: {} })).status).toBe(403);
    expect((await t.json("DELETE", repoHooks(`/${id}`), { token: bobToken })).status).toBe(403);
    expect((await t.json("GET", repoHooks("", "alice/secret"), { token: carolToken })).status).toBe(404);
    // The id exists, but under another repository's URL it names nothing.
    expect((await t.json("GET", repoHooks(`/${id}`, "alice/other"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("PATCH", repoHooks(`/${id}`, "alice/other"), { token: aliceToken, body: {} })).status).toBe(404);
    expect((await t.json("DELETE", repoHooks(`/${id}`, "alice/other"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", repoHooks("/abc"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", `/api/v1/user/hooks/${id}`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", `/api/v1/admin/hooks/${id}`, { token: rootToken })).status).toBe(404);
    await t.ok("DELETE", repoHooks(`/${id}`), aliceToken, undefined, 204);
  });

  test("a token without the repository scope is refused", async () => {
    const readOnly = t.token(alice, ["read:repository"]);
    expect((await t.json("GET", repoHooks(), { token: readOnly })).status).toBe(200);
    const r = await create(gitea(), readOnly);
    expect(r.status).toBe(403);
    expect(r.body.message).toContain("write:repository");
  });
});

describe("validation, with Gitea's messages", () => {
  const cases: [string, unknown, number, string][] = [
    ["unknown type", { type: "jenkins", config: { url: URL_A, content_type: "json" } }, 422, "Invalid hook type: jenkins"],
    ["no type", { config: { url: URL_A, content_type: "json" } }, 422, "Invalid hook type: "],
    ["no url", { type: "gitea", config: { content_type: "json" } }, 422, "Missing config option: url"],
    ["no content type", { type: "gitea", config: { url: URL_A } }, 422, "Missing config option: content_type"],
    ["no config", { type: "gitea" }, 422, "Missing config option: url"],
    ["bad content type", { type: "gitea", config: { url: URL_A, content_type: "xml" } }, 422, "Invalid content type"],
    ["bad url", { type: "gitea", config: { url: "not a url", content_type: "json" } }, 422, "Invalid url"],
    ["ftp url", { type: "gitea", config: { url: "ftp://example.com/x", content_type: "json" } }, 422, "Invalid url"],
    ["bad is_system_webhook", { type: "gitea", config: { url: URL_A, content_type: "json", is_system_webhook: "maybe" } }, 422, "Invalid is_system_webhook value"],
    ["slack without channel", { type: "slack", config: { url: URL_A, content_type: "json" } }, 422, "Missing config option: channel"],
    ["slack with a lone #", { type: "slack", config: { url: URL_A, content_type: "json", channel: " # " } }, 400, "Invalid slack channel name"],
    // Gitea's IsValidSlackChannel is Slack's naming: ^#?[a-z0-9_-]{1,80}$ (after trimming).
    ["slack with upper case", { type: "slack", config: { url: URL_A, content_type: "json", channel: "#Dev" } }, 400, "Invalid slack channel name"],
    ["slack with a space", { type: "slack", config: { url: URL_A, content_type: "json", channel: "dev ops" } }, 400, "Invalid slack channel name"],
    ["slack with a user", { type: "slack", config: { url: URL_A, content_type: "json", channel: "@me" } }, 400, "Invalid slack channel name"],
    ["slack too long", { type: "slack", config: { url: URL_A, content_type: "json", channel: "x".repeat(81) } }, 400, "Invalid slack channel name"],
  ];
  for (const [name, body, status, message] of cases) {
    test(name, async () => {
      const r = await create(body);
      expect({ status: r.status, message: r.body?.message }).toEqual({ status, message });
    });
  }

  test("nothing was created by the refused requests", async () => {
    expect(await t.ok("GET", repoHooks(), aliceToken)).toEqual([]);
  });

  test("edit checks the url and content type", async () => {
    const id = (await create(gitea())).body.id;
    const bad = await t.json("PATCH", repoHooks(`/${id}`), { token: aliceToken, body: { config: { url: "nope" } } });
    expect({ status: bad.status, message: bad.body.message }).toEqual({ status: 422, message: "Invalid url" });
    const ct = await t.json("PATCH", repoHooks(`/${id}`), { token: aliceToken, body: { config: { content_type: "yaml" } } });
    expect({ status: ct.status, message: ct.body.message }).toEqual({ status: 422, message: "Invalid content type" });
    expect((await t.ok("GET", repoHooks(`/${id}`), aliceToken)).config.url).toBe(URL_A);
    await t.ok("DELETE", repoHooks(`/${id}`), aliceToken, undefined, 204);
  });

  test("every Gitea hook type is accepted; slack keeps its settings in meta and shows them in config", async () => {
    for (const type of ["gitea", "gogs", "discord", "dingtalk", "telegram", "msteams", "feishu", "matrix", "wechatwork", "packagist"]) {
      const r = await create({ type, config: { url: URL_A, content_type: "json" } });
      expect({ type, status: r.status }).toEqual({ type, status: 201 });
      expect(r.body.type).toBe(type);
      await t.ok("DELETE", repoHooks(`/${r.body.id}`), aliceToken, undefined, 204);
    }
    const s = await create({ type: "slack", config: { url: URL_A, content_type: "json", channel: " #dev ", username: "bot", icon_url: "http://i/x.png", color: "#fff" } });
    expect(s.status).toBe(201);
    expect(s.body.config).toEqual({ url: URL_A, content_type: "json", channel: "#dev", username: "bot", icon_url: "http://i/x.png", color: "#fff" });
    const row = getWebhook(t.env.db, { repoId: await repoId("alice/hr") }, s.body.id)!;
    expect(JSON.parse(row.meta)).toEqual({ channel: "#dev", username: "bot", icon_url: "http://i/x.png", color: "#fff" });
    // An edit takes the channel unchecked, as Gitea's editHook does.
    const e = await t.ok("PATCH", repoHooks(`/${s.body.id}`), aliceToken, { config: { channel: "@me" } });
    expect(e.config).toMatchObject({ channel: "@me", username: "" });
    await t.ok("DELETE", repoHooks(`/${s.body.id}`), aliceToken, undefined, 204);
  });
});

describe("events and branch filter", () => {
  const eventsOf = async (events: string[]) => {
    const r = await create(gitea({ events }));
    expect(r.status).toBe(201);
    await t.ok("DELETE", repoHooks(`/${r.body.id}`), aliceToken, undefined, 204);
    return r.body.events as string[];
  };

  test("the `issues` and `pull_request` groups cover their sub-events; *_only names the bare event", async () => {
    expect(await eventsOf(["issues"])).toEqual(["issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"]);
    expect(await eventsOf(["issues_only"])).toEqual(["issues"]);
    expect(await eventsOf(["issue_comment"])).toEqual(["issue_comment"]);
    expect(await eventsOf(["pull_request"])).toEqual([
      "pull_request",
      "pull_request_assign",
      "pull_request_label",
      "pull_request_milestone",
      "pull_request_comment",
      "pull_request_review",
      "pull_request_review_request",
      "pull_request_sync",
    ]);
    expect(await eventsOf(["pull_request_only", "pull_request_review"])).toEqual(["pull_request", "pull_request_review"]);
  });

  test("names match case-insensitively, unknown ones are dropped, none means push", async () => {
    expect(await eventsOf(["PUSH", "Release", "nonsense"])).toEqual(["push", "release"]);
    expect(await eventsOf([])).toEqual(["push"]);
    expect(await eventsOf(["create", "delete", "fork", "repository", "wiki", "package", "status", "workflow_run", "workflow_job"])).toEqual([
      "create",
      "delete",
      "fork",
      "repository",
      "wiki",
      "package",
      "status",
      "workflow_run",
      "workflow_job",
    ]);
  });

  test("the stored events are Gitea's HookEvent JSON, and HasEvent reads them (reviews share one key)", async () => {
    const r = await create(gitea({ events: ["pull_request_review", "push"], branch_filter: "{main,release/*}" }));
    const row = getWebhook(t.env.db, { repoId: await repoId("alice/hr") }, r.body.id)!;
    const stored = JSON.parse(row.events);
    expect(stored).toMatchObject({ push_only: false, send_everything: false, choose_events: true, branch_filter: "{main,release/*}" });
    expect(stored.events).toMatchObject({ push: true, pull_request_review: true, issues: false });
    expect(hookWants(row, "pull_request_review_approved")).toBe(true);
    expect(hookWants(row, "pull_request_review_rejected")).toBe(true);
    expect(hookWants(row, "issues")).toBe(false);
    expect(hookWants(row, "push", "main")).toBe(true);
    expect(hookWants(row, "push", "release/1.0")).toBe(true);
    expect(hookWants(row, "push", "dev")).toBe(false);
    // No branch (a tag, an issue): the filter has no effect.
    expect(hookWants(row, "push")).toBe(true);
    expect(r.body.branch_filter).toBe("{main,release/*}");
    // Gitea's edit always sets the filter: left out, it is cleared.
    expect((await t.ok("PATCH", repoHooks(`/${r.body.id}`), aliceToken, { events: ["push"] })).branch_filter).toBe("");
    await t.ok("DELETE", repoHooks(`/${r.body.id}`), aliceToken, undefined, 204);
  });

  test("send_everything and push_only hooks (as Gitea's web forms store them)", () => {
    const all = { events: JSON.stringify({ push_only: false, send_everything: true, choose_events: false, branch_filter: "", events: {} }) };
    const push = { events: JSON.stringify({ push_only: true, send_everything: false, choose_events: false, branch_filter: "", events: {} }) };
    expect(hookWants(all, "wiki")).toBe(true);
    expect(hookWants(push, "push", "main")).toBe(true);
    expect(hookWants(push, "issues")).toBe(false);
    expect(hookWants({ events: "not json" }, "push")).toBe(false);
    // `*` and an empty filter let everything through; `*` alone spans `/` (no separators, as Gitea compiles it).
    const f = (branch_filter: string) => ({ events: JSON.stringify({ choose_events: true, branch_filter, events: { push: true } }) });
    expect(hookWants(f("*"), "push", "a/b")).toBe(true);
    expect(hookWants(f("feature-*"), "push", "feature-x/y")).toBe(true);
    expect(hookWants(f("[unclosed"), "push", "main")).toBe(false);
  });
});

/** Every file under the test's directory (database, WAL, data dir, repositories). */
function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

async function repoId(full: string): Promise<number> {
  return (await t.ok("GET", `/api/v1/repos/${full}`, aliceToken)).id;
}

describe("authorization header", () => {
  const CLEAR = "Bearer hearth-unique-credential-7f3a9c";

  test("accepted on create and edit, returned as Gitea returns it (in clear), stored only sealed", async () => {
    const r = await create(gitea({ authorization_header: CLEAR }));
    expect(r.status).toBe(201);
    expect(r.body.authorization_header).toBe(CLEAR);
    const id = r.body.id;
    expect((await t.ok("GET", repoHooks(`/${id}`), aliceToken)).authorization_header).toBe(CLEAR);
    expect((await t.ok("GET", repoHooks(), aliceToken)).find((h: { id: number }) => h.id === id).authorization_header).toBe(CLEAR);

    const row = getWebhook(t.env.db, { repoId: await repoId("alice/hr") }, id)!;
    expect(row.headerAuthorizationEncrypted).not.toBe("");
    expect(row.headerAuthorizationEncrypted).not.toContain("hearth-unique-credential");
    expect(openAuthorization(t.env, row)).toBe(CLEAR);
    // Sealed to this hook: the same value on another id does not open.
    expect(() => openAuthorization(t.env, { ...row, id: row.id + 1000 })).toThrow();

    // Nowhere in clear: not in the database file, its WAL, nor anywhere in the data dir.
    const files = allFiles(t.dir);
    const needle = Buffer.from("hearth-unique-credential-7f3a9c");
    // The scan does read the database: the hook's URL, stored in clear, is found.
    expect(files.some((f) => readFileSync(f).includes(Buffer.from("http://127.0.0.1:9/a")))).toBe(true);
    expect(files.filter((f) => readFileSync(f).includes(needle))).toEqual([]);

    const e = await t.ok("PATCH", repoHooks(`/${id}`), aliceToken, { authorization_header: "token other" });
    expect(e.authorization_header).toBe("token other");
    // Gitea's edit sets the header from the request every time: left out, it is cleared.
    const cleared = await t.ok("PATCH", repoHooks(`/${id}`), aliceToken, { active: true });
    expect(cleared.authorization_header).toBe("");
    expect(getWebhook(t.env.db, { repoId: await repoId("alice/hr") }, id)!.headerAuthorizationEncrypted).toBe("");
    await t.ok("DELETE", repoHooks(`/${id}`), aliceToken, undefined, 204);
  });
});

describe("organization hooks", () => {
  const orgHooks = (rest = "", org = "acme") => `/api/v1/orgs/${org}/hooks${rest}`;

  test("owners manage them; members get 403, an organization the caller cannot see 404", async () => {
    const r = await create(gitea({ events: ["issues"] }), aliceToken, orgHooks());
    expect(r.status).toBe(201);
    expectShape(r.body, Hook);
    const id = r.body.id;
    expect(await t.ok("GET", orgHooks(`/${id}`), aliceToken)).toEqual(r.body);
    const list = await t.json("GET", orgHooks(), { token: aliceToken });
    expect(list.body.map((h: { id: number }) => h.id)).toEqual([id]);
    expect(list.headers.get("X-Total-Count")).toBe("1");
    expect((await t.ok("PATCH", orgHooks(`/${id}`), aliceToken, { events: ["push"], active: true })).active).toBe(true);

    expect((await t.json("GET", orgHooks())).status).toBe(401);
    expect((await t.json("GET", orgHooks(), { token: bobToken })).status).toBe(403);
    expect((await t.json("GET", orgHooks(`/${id}`), { token: bobToken })).status).toBe(403);
    expect((await create(gitea(), bobToken, orgHooks())).status).toBe(403);
    expect((await t.json("GET", orgHooks("", "hidden"), { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", orgHooks("", "nosuch"), { token: aliceToken })).status).toBe(404);
    // An organization hook is not the owner's user hook, nor a repository's.
    expect((await t.json("GET", orgHooks(`/${id}`, "hidden"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", repoHooks(`/${id}`), { token: aliceToken })).status).toBe(404);
    expect((await t.json("DELETE", orgHooks(`/${id}`), { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", orgHooks(`/${id}`), { token: aliceToken })).status).toBe(404);
  });
});

describe("user hooks", () => {
  test("the doer's own hooks only", async () => {
    const r = await create(gitea(), bobToken, "/api/v1/user/hooks");
    expect(r.status).toBe(201);
    const id = r.body.id;
    expect((await t.ok("GET", "/api/v1/user/hooks", bobToken)).map((h: { id: number }) => h.id)).toEqual([id]);
    expect(await t.ok("GET", "/api/v1/user/hooks", carolToken)).toEqual([]);
    expect((await t.json("GET", `/api/v1/user/hooks/${id}`, { token: carolToken })).status).toBe(404);
    expect((await t.json("PATCH", `/api/v1/user/hooks/${id}`, { token: carolToken, body: {} })).status).toBe(404);
    expect((await t.json("DELETE", `/api/v1/user/hooks/${id}`, { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/user/hooks")).status).toBe(401);
    expect((await t.ok("PATCH", `/api/v1/user/hooks/${id}`, bobToken, { events: ["release"] })).events).toEqual(["release"]);
    await t.ok("DELETE", `/api/v1/user/hooks/${id}`, bobToken, undefined, 204);
  });
});

describe("system and default hooks", () => {
  test("site admins only; a hook is a default one unless is_system_webhook; the list filters by type", async () => {
    expect((await t.json("GET", "/api/v1/admin/hooks", { token: aliceToken })).status).toBe(403);
    expect((await create(gitea(), aliceToken, "/api/v1/admin/hooks")).status).toBe(403);
    const d = await create(gitea(), rootToken, "/api/v1/admin/hooks");
    expect(d.status).toBe(201);
    const s = await create(gitea({}, { is_system_webhook: "true" }), rootToken, "/api/v1/admin/hooks");
    expect(s.status).toBe(201);
    const ids = async (type?: string) =>
      (await t.ok("GET", `/api/v1/admin/hooks${type ? `?type=${type}` : ""}`, rootToken)).map((h: { id: number }) => h.id);
    expect(await ids()).toEqual([s.body.id]);
    expect(await ids("system")).toEqual([s.body.id]);
    expect(await ids("default")).toEqual([d.body.id]);
    expect(await ids("all")).toEqual([d.body.id, s.body.id]);
    expect(await t.ok("GET", `/api/v1/admin/hooks/${d.body.id}`, rootToken)).toEqual(d.body);
    expect((await t.ok("PATCH", `/api/v1/admin/hooks/${s.body.id}`, rootToken, { events: ["issues_only"] })).events).toEqual(["issues"]);
    expect((await t.json("GET", `/api/v1/admin/hooks/${d.body.id}`, { token: aliceToken })).status).toBe(403);
    await t.ok("DELETE", `/api/v1/admin/hooks/${d.body.id}`, rootToken, undefined, 204);
    await t.ok("DELETE", `/api/v1/admin/hooks/${s.body.id}`, rootToken, undefined, 204);
    expect((await t.json("GET", `/api/v1/admin/hooks/${s.body.id}`, { token: rootToken })).status).toBe(404);
    expect((await t.json("PATCH", `/api/v1/admin/hooks/${s.body.id}`, { token: rootToken, body: {} })).status).toBe(404);
  });

  test("an event of a repository goes to its own active hooks, its owner's and the system hooks; default hooks are copied into new repositories", async () => {
    const own = await create(gitea({ active: true }));
    const off = await create(gitea({ active: false }));
    const elsewhere = await create(gitea({ active: true }), aliceToken, repoHooks("", "alice/other"));
    const user = await create(gitea({ active: true }), aliceToken, "/api/v1/user/hooks");
    const bobs = await create(gitea({ active: true }), bobToken, "/api/v1/user/hooks");
    const system = await create(gitea({ active: true }, { is_system_webhook: "true" }), rootToken, "/api/v1/admin/hooks");
    const dflt = await create(gitea({ active: true, authorization_header: "Basic ZGVmYXVsdA==", branch_filter: "main" }, { url: URL_B }), rootToken, "/api/v1/admin/hooks");
    const alicesRepo = await t.ok("GET", "/api/v1/repos/alice/hr", aliceToken);
    const found = hooksForRepo(t.env.db, alicesRepo.id, alice.id).map((h) => h.id);
    expect(found).toEqual([own.body.id, user.body.id, system.body.id]);
    expect(found).not.toContain(off.body.id);
    expect(found).not.toContain(elsewhere.body.id);
    expect(found).not.toContain(bobs.body.id);
    expect(found).not.toContain(dflt.body.id);

    const fresh = await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "fresh" }, 201);
    const copies = await t.ok("GET", repoHooks("", "alice/fresh"), aliceToken);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ config: { url: URL_B }, active: true, branch_filter: "main", authorization_header: "Basic ZGVmYXVsdA==" });
    expect(copies[0].id).not.toBe(dflt.body.id);
    expect(hooksForRepo(t.env.db, fresh.id, alice.id).map((h) => h.id)).toEqual([user.body.id, system.body.id, copies[0].id]);

    for (const [path, token, id] of [
      [repoHooks(), aliceToken, own.body.id],
      [repoHooks(), aliceToken, off.body.id],
      [repoHooks("", "alice/other"), aliceToken, elsewhere.body.id],
      ["/api/v1/user/hooks", aliceToken, user.body.id],
      ["/api/v1/user/hooks", bobToken, bobs.body.id],
      ["/api/v1/admin/hooks", rootToken, system.body.id],
      ["/api/v1/admin/hooks", rootToken, dflt.body.id],
    ] as const) {
      await t.ok("DELETE", `${path}/${id}`, token, undefined, 204);
    }
  });
});

describe("POST /hooks/{id}/tests", () => {
  test("sends a push of the default branch's head commit to that hook alone", async () => {
    const hook = await create(gitea({ active: false }));
    const other = await create(gitea({ active: true }));
    const branch = await t.ok("GET", "/api/v1/repos/alice/hr/branches/main", aliceToken);
    expect((await t.json("POST", repoHooks(`/${hook.body.id}/tests`), { token: aliceToken })).status).toBe(204);
    const { rows } = listHookTasks(t.env.db, hook.body.id, { offset: 0, limit: 10 });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.eventType).toBe("push");
    const payload = JSON.parse(rows[0]!.payloadContent);
    expect(payload).toMatchObject({
      ref: "refs/heads/main",
      before: branch.commit.id,
      after: branch.commit.id,
      total_commits: 1,
      head_commit: { id: branch.commit.id, message: branch.commit.message },
      repository: { full_name: "alice/hr" },
      pusher: { login: "alice" },
      sender: { login: "alice" },
    });
    expect(payload.commits.map((c: { id: string }) => c.id)).toEqual([branch.commit.id]);
    expect(payload.compare_url).toContain(`/alice/hr/compare/${branch.commit.id}...${branch.commit.id}`);
    expect(listHookTasks(t.env.db, other.body.id, { offset: 0, limit: 10 }).total).toBe(0);

    // A ref given explicitly, as a branch name.
    expect((await t.json("POST", repoHooks(`/${hook.body.id}/tests?ref=main`), { token: aliceToken })).status).toBe(204);
    expect(JSON.parse(listHookTasks(t.env.db, hook.body.id, { offset: 0, limit: 10 }).rows[0]!.payloadContent).ref).toBe("main");
    expect((await t.json("POST", repoHooks(`/${hook.body.id}/tests?ref=nosuch`), { token: aliceToken })).status).toBe(404);
    expect(listHookTasks(t.env.db, hook.body.id, { offset: 0, limit: 10 }).total).toBe(2);
    await t.ok("DELETE", repoHooks(`/${hook.body.id}`), aliceToken, undefined, 204);
    await t.ok("DELETE", repoHooks(`/${other.body.id}`), aliceToken, undefined, 204);
  });

  test("a hook that does not want pushes, or whose branch filter refuses the branch, gets nothing", async () => {
    const issuesOnly = await create(gitea({ events: ["issues"] }));
    const filtered = await create(gitea({ branch_filter: "release/*" }));
    for (const h of [issuesOnly, filtered]) {
      expect((await t.json("POST", repoHooks(`/${h.body.id}/tests`), { token: aliceToken })).status).toBe(204);
      expect(listHookTasks(t.env.db, h.body.id, { offset: 0, limit: 10 }).total).toBe(0);
      await t.ok("DELETE", repoHooks(`/${h.body.id}`), aliceToken, undefined, 204);
    }
  });

  test("404 for an unknown hook, 403 for a reader, nothing sent for an empty repository", async () => {
    expect((await t.json("POST", repoHooks("/999999/tests"), { token: aliceToken })).status).toBe(404);
    const h = await create(gitea());
    expect((await t.json("POST", repoHooks(`/${h.body.id}/tests`), { token: bobToken })).status).toBe(403);
    const e = await create(gitea(), aliceToken, repoHooks("", "alice/secret"));
    expect((await t.json("POST", repoHooks(`/${e.body.id}/tests`, "alice/secret"), { token: aliceToken })).status).toBe(204);
    expect(listHookTasks(t.env.db, e.body.id, { offset: 0, limit: 10 }).total).toBe(0);
    await t.ok("DELETE", repoHooks(`/${h.body.id}`), aliceToken, undefined, 204);
    await t.ok("DELETE", repoHooks(`/${e.body.id}`, "alice/secret"), aliceToken, undefined, 204);
  });
});
