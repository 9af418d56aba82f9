import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { GeneralAPISettings, GeneralAttachmentSettings, GeneralRepoSettings, GeneralUISettings } from "../../src/shapes/settings.ts";

const t = makeTestApp("[api]\nMAX_RESPONSE_ITEMS = 40\nDEFAULT_PAGING_NUM = 20\n[attachment]\nMAX_SIZE = 4\n");

describe("version and health", () => {
  test("/version is semver with hearth as build metadata", async () => {
    const r = await t.json("GET", "/api/v1/version");
    expect(r.status).toBe(200);
    expect(r.body.version).toMatch(/^1\.25\.\d+\+hearth\.\d+\.\d+\.\d+$/);
  });

  test("/api/healthz reports the database check in Gitea's shape", async () => {
    const r = await t.json("GET", "/api/healthz");
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("pass");
    expect(r.body.checks["database:ping"][0].status).toBe("pass");
    expect(r.body.checks["database:ping"][0].time).toMatch(/Z$/);
  });

  test("/api/healthz fails with 424 when the database is gone", async () => {
    const broken = makeTestApp();
    (broken.env.db as unknown as { $client: { close(): void } }).$client.close();
    const r = await broken.json("GET", "/api/healthz");
    expect(r.status).toBe(424);
    expect(r.body.status).toBe("fail");
  });
});

describe("/settings", () => {
  test("report the configured values", async () => {
    const api = await t.json("GET", "/api/v1/settings/api");
    expectShape(api.body, GeneralAPISettings);
    expect(api.body).toMatchObject({ max_response_items: 40, default_paging_num: 20, default_git_trees_per_page: 1000 });
    const att = await t.json("GET", "/api/v1/settings/attachment");
    expectShape(att.body, GeneralAttachmentSettings);
    // Gitea reports [attachment] MAX_SIZE as configured, in MB.
    expect(att.body.max_size).toBe(4);
    const repo = await t.json("GET", "/api/v1/settings/repository");
    expectShape(repo.body, GeneralRepoSettings);
    // Stars and (push) mirrors are there unless [repository] DISABLE_STARS / [mirror] ENABLED = false.
    expect(repo.body).toMatchObject({ stars_disabled: false, mirrors_disabled: false });
    const ui = await t.json("GET", "/api/v1/settings/ui");
    expectShape(ui.body, GeneralUISettings);
    expect(ui.body.allowed_reactions).toContain("+1");
  });
});

describe("[repository] DISABLE_STARS and [mirror] ENABLED", () => {
  test("turn stars off (403 on every star endpoint) and report both in /settings/repository", async () => {
    const off = makeTestApp("[repository]\nDISABLE_STARS = true\n[mirror]\nENABLED = false\n");
    const u = await off.user("stargazer");
    const tok = off.token(u);
    expect((await off.json("POST", "/api/v1/user/repos", { token: tok, body: { name: "shiny" } })).status).toBe(201);
    expect((await off.json("GET", "/api/v1/settings/repository")).body).toMatchObject({ stars_disabled: true, mirrors_disabled: true });
    for (const [method, path] of [
      ["PUT", "/api/v1/user/starred/stargazer/shiny"],
      ["GET", "/api/v1/user/starred/stargazer/shiny"],
      ["DELETE", "/api/v1/user/starred/stargazer/shiny"],
      ["GET", "/api/v1/user/starred"],
      ["GET", "/api/v1/users/stargazer/starred"],
      ["GET", "/api/v1/repos/stargazer/shiny/stargazers"],
    ] as const) {
      const r = await off.json(method, path, { token: tok });
      expect({ path, method, status: r.status, message: r.body?.message }).toEqual({ path, method, status: 403, message: "stars disabled by administrator" });
    }
  });
});

describe("errors", () => {
  test("unknown API paths are a JSON 404 in Gitea's shape", async () => {
    for (const path of ["/api/v1/nope", "/api/v1/users/a/b/c/d", "/api/nothing"]) {
      const r = await t.json("GET", path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ message: "not found", url: "http://hearth.test/api/swagger" });
    }
  });

  test("a huge body is refused with 413 before it is read", async () => {
    const u = await t.user("big");
    const tok = t.token(u);
    const huge = "x".repeat(33 * 1024 * 1024);
    const r = await t.json("PATCH", "/api/v1/user/settings", { token: tok, body: JSON.stringify({ location: huge }) });
    expect(r.status).toBe(413);
    expect(r.body.message).toBe("request body too large");
  });

  test("form-encoded bodies are accepted as Gitea's binding does", async () => {
    const u = await t.user("former");
    const r = await t.json("PATCH", "/api/v1/user/settings", {
      token: t.token(u),
      body: "full_name=Form+User&location=Here",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ full_name: "Form User", location: "Here" });
  });
});

describe("static assets and API docs", () => {
  test("the default avatar and the swagger UI are served from the executable", async () => {
    const avatar = await t.request("GET", "/assets/img/avatar_default.png");
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await avatar.arrayBuffer()).slice(1, 4)).toEqual(new TextEncoder().encode("PNG"));
    const page = await t.request("GET", "/api/swagger");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("http://hearth.test/swagger.v1.json");
    expect(html).not.toMatch(/https?:\/\/(?!hearth\.test)/);
    const bundle = await t.request("GET", "/assets/swagger-ui/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
  });

  test("upload operations describe their multipart file field", async () => {
    const doc = await t.json("GET", "/swagger.v1.json");
    const op = doc.body.paths["/repos/{owner}/{repo}/issues/{index}/assets"].post;
    expect(op.operationId).toBe("issueCreateIssueAttachment");
    expect(op.consumes).toEqual(["multipart/form-data"]);
    expect(op.parameters).toContainEqual({ name: "attachment", in: "formData", type: "file", required: true });
  });

  test("ENABLE_SWAGGER = false hides the document and the page", async () => {
    const off = makeTestApp("[api]\nENABLE_SWAGGER = false\n");
    expect((await off.request("GET", "/swagger.v1.json")).status).toBe(404);
    expect((await off.request("GET", "/api/swagger")).status).toBe(404);
  });
});

describe("paths", () => {
  test("path parameters are decoded once; bad escapes are a 404, not a 500", async () => {
    const r = await t.json("GET", "/api/v1/users/a%2525b");
    expect(r.status).toBe(404);
    expect(r.body.message).toBe("user redirect does not exist [name: a%25b]");
    expect((await t.json("GET", "/api/v1/users/%zz")).status).toBe(404);
  });

  test("a trailing slash and HEAD work as in Gitea", async () => {
    expect((await t.json("GET", "/api/v1/version/")).status).toBe(200);
    const head = await t.request("HEAD", "/api/v1/version");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});
