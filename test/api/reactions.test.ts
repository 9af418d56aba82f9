import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Reaction } from "../../src/shapes/comment.ts";
import { writeTx } from "../../src/db/client.ts";
import * as issueModel from "../../src/models/issue.ts";
import { reactions } from "../../src/db/schema/index.ts";
import { eq } from "drizzle-orm";

// `gitea` is one of the default custom emojis: it is a reaction only because it is listed here.
const t = makeTestApp("[ui]\nREACTIONS = +1, -1, heart, gitea\n");
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

const ok = t.ok.bind(t);

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "other" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
const base = "/api/v1/repos/alice/proj/issues";
await ok("POST", base, aliceToken, { title: "React to me" }, 201);
await ok("POST", "/api/v1/repos/alice/other/issues", aliceToken, { title: "Elsewhere" }, 201);
await ok("POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "Hidden" }, 201);
const comment = await ok("POST", `${base}/1/comments`, aliceToken, { body: "and to me" }, 201);
const projId = (await ok("GET", "/api/v1/repos/alice/proj", aliceToken)).id;
const setLocked = (locked: boolean) =>
  writeTx(t.env.db, (tx) => issueModel.updateIssue(tx, issueModel.getIssueByIndex(tx, projId, 1)!.id, { isLocked: locked }));

const contents = (list: { content: string; user: { login: string } }[]) => list.map((r) => `${r.user.login}:${r.content}`);

describe("issue reactions", () => {
  test("201 for a new reaction, 200 with the same one when repeated", async () => {
    const first = await t.json("POST", `${base}/1/reactions`, { token: bobToken, body: { content: "+1" } });
    expect(first.status).toBe(201);
    expectShape(first.body, Reaction);
    expect(first.body.content).toBe("+1");
    expect(first.body.user.login).toBe("bob");
    const again = await t.json("POST", `${base}/1/reactions`, { token: bobToken, body: { content: "+1" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    await ok("POST", `${base}/1/reactions`, aliceToken, { content: "gitea" }, 201);
  });

  test("a reaction outside [ui] REACTIONS is refused with 403", async () => {
    const r = await t.json("POST", `${base}/1/reactions`, { token: bobToken, body: { content: "rocket" } });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("'rocket' is not an allowed reaction");
    // `git` is a custom emoji but not listed as a reaction.
    expect((await t.json("POST", `${base}/1/reactions`, { token: bobToken, body: { content: "git" } })).status).toBe(403);
    expect((await t.json("POST", `${base}/1/reactions`, { token: bobToken, body: {} })).body.message).toBe("'' is not an allowed reaction");
  });

  test("the list: oldest first, paginated, anonymous readers welcome; types no longer allowed disappear", async () => {
    const r = await t.json("GET", `${base}/1/reactions`);
    expect(r.status).toBe(200);
    expect(contents(r.body)).toEqual(["bob:+1", "alice:gitea"]);
    expect(r.headers.get("x-total-count")).toBe("2");
    expectShape(r.body[0], Reaction);
    const page2 = await ok("GET", `${base}/1/reactions?limit=1&page=2`, undefined);
    expect(contents(page2)).toEqual(["alice:gitea"]);
    const saved = t.settings.ui.reactions;
    t.settings.ui.reactions = ["+1"];
    try {
      expect(contents(await ok("GET", `${base}/1/reactions`, undefined))).toEqual(["bob:+1"]);
    } finally {
      t.settings.ui.reactions = saved;
    }
  });

  test("delete answers 200, also for a reaction that is not there", async () => {
    const r = await t.request("DELETE", `${base}/1/reactions`, { token: bobToken, body: { content: "+1" } });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("");
    expect(contents(await ok("GET", `${base}/1/reactions`, undefined))).toEqual(["alice:gitea"]);
    expect((await t.request("DELETE", `${base}/1/reactions`, { token: bobToken, body: { content: "heart" } })).status).toBe(200);
    // Removing someone else's reaction is not possible: only the doer's own goes.
    await ok("DELETE", `${base}/1/reactions`, bobToken, { content: "gitea" });
    expect(contents(await ok("GET", `${base}/1/reactions`, undefined))).toEqual(["alice:gitea"]);
  });

  test("refusals: anonymous 401, unknown issue 404, hidden repository 404", async () => {
    expect((await t.json("POST", `${base}/1/reactions`, { body: { content: "+1" } })).status).toBe(401);
    expect((await t.json("DELETE", `${base}/1/reactions`, { body: { content: "+1" } })).status).toBe(401);
    expect((await t.json("GET", `${base}/9/reactions`)).status).toBe(404);
    expect((await t.json("POST", `${base}/9/reactions`, { token: bobToken, body: { content: "+1" } })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/issues/1/reactions", { token: bobToken })).status).toBe(404);
    expect((await t.json("POST", "/api/v1/repos/alice/secret/issues/1/reactions", { token: bobToken, body: { content: "+1" } })).status).toBe(404);
  });

  test("on a locked issue only writers react", async () => {
    setLocked(true);
    try {
      const r = await t.json("POST", `${base}/1/reactions`, { token: bobToken, body: { content: "heart" } });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe("no permission to change reaction");
      expect((await t.json("DELETE", `${base}/1/reactions`, { token: bobToken, body: { content: "heart" } })).status).toBe(403);
      await ok("POST", `${base}/1/reactions`, carolToken, { content: "heart" }, 201);
      expect((await t.json("POST", `${base}/comments/${comment.id}/reactions`, { token: bobToken, body: { content: "heart" } })).status).toBe(403);
    } finally {
      setLocked(false);
    }
  });
});

describe("comment reactions", () => {
  test("add, list, repeat and remove", async () => {
    const path = `${base}/comments/${comment.id}/reactions`;
    const first = await t.json("POST", path, { token: bobToken, body: { content: "heart" } });
    expect(first.status).toBe(201);
    expectShape(first.body, Reaction);
    expect((await t.json("POST", path, { token: bobToken, body: { content: "heart" } })).status).toBe(200);
    await ok("POST", path, carolToken, { content: "-1" }, 201);
    expect(contents(await ok("GET", path, undefined))).toEqual(["bob:heart", "carol:-1"]);
    // The issue's own reactions and the comment's are separate lists.
    expect(contents(await ok("GET", `${base}/1/reactions`, undefined))).not.toContain("bob:heart");
    const refused = await t.json("POST", path, { token: bobToken, body: { content: "laugh" } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("'laugh' is not an allowed reaction");
    await ok("DELETE", path, bobToken, { content: "heart" });
    expect(contents(await ok("GET", path, undefined))).toEqual(["carol:-1"]);
  });

  test("a comment of another repository or a hidden one is 404; an empty list is []", async () => {
    const elsewhere = await ok("POST", "/api/v1/repos/alice/other/issues/1/comments", aliceToken, { body: "x" }, 201);
    expect((await t.json("GET", `${base}/comments/${elsewhere.id}/reactions`)).status).toBe(404);
    expect((await t.json("POST", `${base}/comments/${elsewhere.id}/reactions`, { token: bobToken, body: { content: "+1" } })).status).toBe(404);
    expect(await ok("GET", `/api/v1/repos/alice/other/issues/comments/${elsewhere.id}/reactions`, undefined)).toEqual([]);
    const hidden = await ok("POST", "/api/v1/repos/alice/secret/issues/1/comments", aliceToken, { body: "y" }, 201);
    expect((await t.json("GET", `/api/v1/repos/alice/secret/issues/comments/${hidden.id}/reactions`, { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", `${base}/comments/999999/reactions`)).status).toBe(404);
  });

  test("reactions of a deleted comment go with it", async () => {
    const c = await ok("POST", `${base}/1/comments`, bobToken, { body: "soon gone" }, 201);
    await ok("POST", `${base}/comments/${c.id}/reactions`, aliceToken, { content: "+1" }, 201);
    expect((await t.request("DELETE", `${base}/comments/${c.id}`, { token: bobToken })).status).toBe(204);
    expect(t.env.db.select().from(reactions).where(eq(reactions.commentId, c.id)).all()).toEqual([]);
  });
});

describe("a tracker unit the doer cannot read", () => {
  test("listing reactions answers Gitea's 403; changing them is 404", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "noissues", auto_init: true }, 201);
    await ok("POST", "/api/v1/repos/alice/noissues/issues", aliceToken, { title: "before the switch" }, 201);
    await ok("PATCH", "/api/v1/repos/alice/noissues", aliceToken, { has_issues: false });
    const r = await t.json("GET", "/api/v1/repos/alice/noissues/issues/1/reactions", { token: bobToken });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("no permission to get reactions");
    expect((await t.json("POST", "/api/v1/repos/alice/noissues/issues/1/reactions", { token: bobToken, body: { content: "+1" } })).status).toBe(404);
  });
});
