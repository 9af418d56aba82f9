import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pushMirrorRefs } from "../../src/git/remote.ts";
import { gitOk, localRepo } from "../support/git.ts";

/** A bare repository with one commit on main, to push from. */
const work = await localRepo();
const bare = join(mkdtempSync(join(tmpdir(), "hearth-pm-bare-")), "r.git");
await gitOk(["clone", "-q", "--bare", work, bare]);

/** What a fake remote saw: the path, Host and Authorization of each request. */
const seen: { path: string; host: string | null; auth: string | null }[] = [];
const elsewhere: string[] = [];
const other = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (req) => {
    elsewhere.push(new URL(req.url).pathname);
    return new Response("no", { status: 404 });
  },
});
const remote = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (req) => {
    const u = new URL(req.url);
    seen.push({ path: u.pathname, host: req.headers.get("host"), auth: req.headers.get("authorization") });
    if (u.pathname.startsWith("/redirect/")) return Response.redirect(`http://127.0.0.1:${other.port}/x.git/info/refs?service=git-receive-pack`, 302);
    return new Response("denied", { status: 403 });
  },
});
afterAll(() => {
  remote.stop(true);
  other.stop(true);
  rmSync(bare, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("pushToMirror", () => {
  test("credentials travel as a Basic header only, never in the URL; a refusal is reported", async () => {
    seen.length = 0;
    const password = "s3cret-Pw!";
    const out = await pushMirrorRefs(bare, {
      url: `http://127.0.0.1:${remote.port}/team/r.git`,
      username: "mirror-bot",
      password,
      timeoutMs: 20_000,
    });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.message).not.toContain(password);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]!.path).toBe("/team/r.git/info/refs");
    expect(seen[0]!.auth).toBe(`Basic ${Buffer.from(`mirror-bot:${password}`).toString("base64")}`);
  });

  test("without credentials no Authorization header is sent", async () => {
    seen.length = 0;
    await pushMirrorRefs(bare, { url: `http://127.0.0.1:${remote.port}/r.git`, username: "", password: "", timeoutMs: 20_000 });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.auth === null)).toBe(true);
  });

  test("the connection goes to the pinned address, whatever the name resolves to", async () => {
    seen.length = 0;
    // `.invalid` never resolves: only the pinned address can be reached.
    const out = await pushMirrorRefs(bare, {
      url: `http://mirror.invalid:${remote.port}/r.git`,
      username: "",
      password: "",
      pinnedAddresses: ["127.0.0.1"],
      timeoutMs: 20_000,
    });
    expect(out.ok).toBe(false);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]!.host).toBe(`mirror.invalid:${remote.port}`);
  });

  test("a redirect is not followed (its target was never checked)", async () => {
    seen.length = 0;
    elsewhere.length = 0;
    const out = await pushMirrorRefs(bare, { url: `http://127.0.0.1:${remote.port}/redirect/r.git`, username: "u", password: "p", timeoutMs: 20_000 });
    expect(out.ok).toBe(false);
    expect(seen.length).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);
  });

  test("a push that takes too long is cut at the timeout", async () => {
    // The remote never answers while the test runs: only the timeout can end the push.
    const { promise: never, resolve: endRemote } = Promise.withResolvers<void>();
    const slow = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: async () => (await never, new Response("late")) });
    try {
      const out = await pushMirrorRefs(bare, { url: `http://127.0.0.1:${slow.port}/r.git`, username: "", password: "", timeoutMs: 500 });
      expect(out).toEqual({ ok: false, message: "push timed out after 1s" });
    } finally {
      endRemote();
      slow.stop(true);
    }
  });
});
