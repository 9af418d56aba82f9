import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { IssueConfig, IssueConfigValidation, IssueTemplate } from "../../src/shapes/issue-extras.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);

async function ok(method: string, path: string, token: string | undefined, body?: unknown, status = 200) {
  const r = await t.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");
const repo = "/api/v1/repos/alice/proj";
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj", auto_init: true }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "empty" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true, auto_init: true }, 201);

const BUG = `---
name: Bug report
about: Something is broken
title: "[bug] "
labels: bug, ui
ref: main
---
Steps to reproduce:
`;
const FORM = `name: Feature
description: Ask for something new
assignees: [alice]
body:
  - type: markdown
    attributes:
      value: Thanks!
  - type: input
    id: what
    attributes:
      label: What do you want?
    validations:
      required: true
  - type: dropdown
    attributes:
      label: Area
      options: [api, web]
`;
const BROKEN = "name: Broken\nbody:\n  - type: input\n";
const PLAIN = "Just write what happened.";
const CONFIG = `blank_issues_enabled: false
contact_links:
  - name: Forum
    url: https://forum.example.com
    about: Ask questions there
`;

await ok(
  "POST",
  `${repo}/contents`,
  aliceToken,
  {
    files: [
      { operation: "create", path: ".gitea/ISSUE_TEMPLATE/bug.md", content: b64(BUG) },
      { operation: "create", path: ".gitea/ISSUE_TEMPLATE/form.yaml", content: b64(FORM) },
      { operation: "create", path: ".gitea/ISSUE_TEMPLATE/broken.yml", content: b64(BROKEN) },
      { operation: "create", path: ".gitea/ISSUE_TEMPLATE/notes.txt", content: b64("ignored") },
      { operation: "create", path: ".gitea/ISSUE_TEMPLATE/config.yaml", content: b64(CONFIG) },
      { operation: "create", path: ".github/ISSUE_TEMPLATE/plain.md", content: b64(PLAIN) },
    ],
  },
  201,
);

describe("issue templates", () => {
  test("Markdown templates and issue forms of the default branch, invalid ones counted in a warning", async () => {
    const r = await t.json("GET", `${repo}/issue_templates`);
    expect(r.status).toBe(200);
    for (const it of r.body) expectShape(it, IssueTemplate);
    expect(r.body.map((it: { file_name: string }) => it.file_name)).toEqual([
      ".gitea/ISSUE_TEMPLATE/bug.md",
      ".gitea/ISSUE_TEMPLATE/form.yaml",
      ".github/ISSUE_TEMPLATE/plain.md",
    ]);
    expect(r.headers.get("x-gitea-warning")).toBe("error occurs when parsing issue template: count=1");
    const [bug, form, plain] = r.body;
    expect(bug).toEqual({
      name: "Bug report",
      title: "[bug] ",
      about: "Something is broken",
      labels: ["bug", "ui"],
      assignees: null,
      ref: "refs/heads/main",
      content: "Steps to reproduce:\n",
      body: null,
      file_name: ".gitea/ISSUE_TEMPLATE/bug.md",
    });
    expect(form).toMatchObject({ name: "Feature", about: "Ask for something new", assignees: ["alice"], content: "", labels: null });
    expect(form.body).toEqual([
      { type: "markdown", id: "0", attributes: { value: "Thanks!" }, validations: null, visible: ["form"] },
      { type: "input", id: "what", attributes: { label: "What do you want?" }, validations: { required: true }, visible: ["form", "content"] },
      { type: "dropdown", id: "2", attributes: { label: "Area", options: ["api", "web"] }, validations: null, visible: ["form", "content"] },
    ]);
    expect(plain).toMatchObject({ name: "plain.md", about: PLAIN, content: PLAIN });
  });

  test("the config file and its validation", async () => {
    const config = await ok("GET", `${repo}/issue_config`, undefined);
    expectShape(config, IssueConfig);
    expect(config).toEqual({
      blank_issues_enabled: false,
      contact_links: [{ name: "Forum", url: "https://forum.example.com", about: "Ask questions there" }],
    });
    const valid = await ok("GET", `${repo}/issue_config/validate`, undefined);
    expectShape(valid, IssueConfigValidation);
    expect(valid).toEqual({ valid: true, message: "" });
  });

  test("an invalid config reads as the default, and validation says why", async () => {
    const current = await ok("GET", `${repo}/contents/.gitea/ISSUE_TEMPLATE/config.yaml`, aliceToken);
    const broken = "contact_links:\n  - name: Forum\n    url: forum\n    about: Ask\n";
    await ok("PUT", `${repo}/contents/.gitea/ISSUE_TEMPLATE/config.yaml`, aliceToken, { content: b64(broken), sha: current.sha });
    expect(await ok("GET", `${repo}/issue_config/validate`, undefined)).toEqual({ valid: false, message: "forum is not a valid URL" });
    expect(await ok("GET", `${repo}/issue_config`, undefined)).toEqual({ blank_issues_enabled: true, contact_links: [] });
    const again = await ok("GET", `${repo}/contents/.gitea/ISSUE_TEMPLATE/config.yaml`, aliceToken);
    await ok("PUT", `${repo}/contents/.gitea/ISSUE_TEMPLATE/config.yaml`, aliceToken, {
      content: b64("contact_links:\n  - name: Forum\n    url: https://x.example\n"),
      sha: again.sha,
    });
    expect(await ok("GET", `${repo}/issue_config/validate`, undefined)).toEqual({
      valid: false,
      message: "contact_link at position 1 is missing about key",
    });
  });

  test("an empty repository has no templates and the default config; private repositories are 404", async () => {
    const r = await t.json("GET", "/api/v1/repos/alice/empty/issue_templates");
    expect(r.body).toEqual([]);
    expect(r.headers.get("x-gitea-warning")).toBeNull();
    expect(await ok("GET", "/api/v1/repos/alice/empty/issue_config", undefined)).toEqual({ blank_issues_enabled: true, contact_links: [] });
    expect(await ok("GET", "/api/v1/repos/alice/empty/issue_config/validate", undefined)).toEqual({ valid: true, message: "" });
    for (const path of ["issue_templates", "issue_config", "issue_config/validate"]) {
      expect((await t.json("GET", `/api/v1/repos/alice/secret/${path}`, { token: bobToken })).status).toBe(404);
      expect((await t.json("GET", `/api/v1/repos/alice/secret/${path}`, { token: aliceToken })).status).toBe(200);
    }
  });
});
