import { describe, expect, test } from "bun:test";
import { paginationHeaders, readPage } from "../../src/http/pagination.ts";
import type { Settings } from "../../src/config/settings.ts";

const settings = { api: { defaultPagingNum: 30, maxResponseItems: 50 } } as Settings;
const root = "http://h.test/";

describe("pagination", () => {
  test("page and limit default, clamp and never fail", () => {
    expect(readPage({}, settings)).toEqual({ page: 1, limit: 30, offset: 0 });
    expect(readPage({ page: "3", limit: "10" }, settings)).toEqual({ page: 3, limit: 10, offset: 20 });
    expect(readPage({ page: "-2", limit: "500" }, settings)).toEqual({ page: 1, limit: 50, offset: 0 });
    expect(readPage({ page: "abc", limit: "0" }, settings)).toEqual({ page: 1, limit: 30, offset: 0 });
  });

  test("Link header carries next/last/first/prev like Gitea's", () => {
    const url = new URL("http://h.test/api/v1/users/search?q=a&limit=2&page=2");
    const h = paginationHeaders(url, root, 7, { page: 2, limit: 2, offset: 2 });
    expect(h["X-Total-Count"]).toBe("7");
    expect(h.Link).toBe(
      [
        '<http://h.test/api/v1/users/search?q=a&limit=2&page=3>; rel="next"',
        '<http://h.test/api/v1/users/search?q=a&limit=2&page=4>; rel="last"',
        '<http://h.test/api/v1/users/search?q=a&limit=2&page=1>; rel="first"',
        '<http://h.test/api/v1/users/search?q=a&limit=2&page=1>; rel="prev"',
      ].join(","),
    );
  });

  test("a single page has no Link header", () => {
    const url = new URL("http://h.test/api/v1/admin/users");
    const h = paginationHeaders(url, root, 3, { page: 1, limit: 30, offset: 0 });
    expect(h.Link).toBeUndefined();
    expect(h["Access-Control-Expose-Headers"]).toBe("X-Total-Count");
  });

  test("a page past the end links back to the last page", () => {
    const url = new URL("http://h.test/api/v1/admin/users?page=9&limit=2");
    const h = paginationHeaders(url, root, 3, { page: 9, limit: 2, offset: 16 });
    expect(h.Link).toContain('admin/users?page=1&limit=2>; rel="prev"');
    expect(h.Link).toContain('rel="first"');
    expect(h.Link).not.toContain('rel="next"');
  });
});
