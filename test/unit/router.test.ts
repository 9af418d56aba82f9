import { describe, expect, test } from "bun:test";
import { answerHead, requestPath, Router } from "../../src/http/router.ts";

describe("Router (http/router.ts)", () => {
  const router = new Router();
  const named = (tag: string) => (_r: Request, params: Record<string, string>) => Response.json({ tag, params });
  router.add("GET", "/api/v1/users/:username", named("user"));
  router.add("POST", "/api/v1/users/:username", named("user-post"));
  router.add("GET", "/api/v1/repos/:owner/:repo/branches/*", named("branch"));
  router.add("GET", "/api/v1/version", named("version"));
  router.add("HEAD", "/api/v1/only-head", named("head"));
  router.add("GET", "/:owner/:repo/src", named("src"));
  router.add("GET", "/:owner/:repo/src/*", named("src-path"));
  router.add("GET", "/v2/", named("v2-root"));

  const match = async (method: string, path: string) => {
    const m = router.find(method, path);
    return m ? await (await m.handler(new Request(`http://x${path}`, { method }), m.params)).json() : undefined;
  };

  test("method and path pick the route; a named parameter is percent-decoded once", async () => {
    expect(await match("GET", "/api/v1/users/a%2525b")).toEqual({ tag: "user", params: { username: "a%25b" } });
    expect(await match("POST", "/api/v1/users/alice")).toEqual({ tag: "user-post", params: { username: "alice" } });
    expect(await match("DELETE", "/api/v1/users/alice")).toBeUndefined();
    expect(await match("GET", "/api/v1/nothing")).toBeUndefined();
  });

  test("a parameter that does not decode matches nothing", () => {
    expect(router.find("GET", "/api/v1/users/%zz")).toBeUndefined();
  });

  test("the `*` rest keeps its escapes and its slashes", async () => {
    expect(await match("GET", "/api/v1/repos/o/r/branches/feature/a%2Fb")).toEqual({
      tag: "branch",
      params: { owner: "o", repo: "r", "*": "feature/a%2Fb" },
    });
  });

  test("a trailing slash reaches the same route; HEAD reaches GET unless it has its own", async () => {
    expect(await match("GET", "/api/v1/version/")).toEqual({ tag: "version", params: {} });
    expect(await match("HEAD", "/api/v1/version")).toEqual({ tag: "version", params: {} });
    expect(await match("HEAD", "/api/v1/only-head")).toEqual({ tag: "head", params: {} });
    expect(await match("GET", "/api/v1/only-head")).toBeUndefined();
    expect(await match("GET", "/api/v1/users/alice/")).toEqual({ tag: "user", params: { username: "alice" } });
    expect(await match("HEAD", "/api/v1/version/")).toEqual({ tag: "version", params: {} });
  });

  test("a trailing slash prefers the route without it to a `*` route; routes declared with a slash keep it", async () => {
    expect(await match("GET", "/o/r/src/")).toEqual({ tag: "src", params: { owner: "o", repo: "r" } });
    expect(await match("GET", "/o/r/src/a/")).toEqual({ tag: "src-path", params: { owner: "o", repo: "r", "*": "a/" } });
    expect(await match("GET", "/v2/")).toEqual({ tag: "v2-root", params: {} });
    expect(await match("GET", "/v2")).toBeUndefined();
  });

  test("routes lists what was added, once each", () => {
    expect(router.routes).toContainEqual({ method: "GET", path: "/api/v1/version" });
    expect(router.routes.filter((r) => r.path === "/api/v1/version")).toHaveLength(1);
  });

  test("requestPath is the path without the query, still escaped", () => {
    expect(requestPath("http://h:3000/api/v1/users/a%20b?x=1&y=/z")).toBe("/api/v1/users/a%20b");
    expect(requestPath("http://h/")).toBe("/");
    expect(requestPath("https://h")).toBe("/");
  });

  test("a HEAD answer keeps status and headers, without the body", async () => {
    const r = await answerHead(new Response("hello", { status: 201, headers: { "X-Total-Count": "3" } }));
    expect(r.status).toBe(201);
    expect(r.headers.get("X-Total-Count")).toBe("3");
    expect(await r.text()).toBe("");
  });
});
