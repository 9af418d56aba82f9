import type { Settings } from "../config/settings.ts";

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

/**
 * Gitea's GetListOptions: `page` is 1-based and anything unparsable or < 1 means 1; `limit` < 1
 * means DEFAULT_PAGING_NUM and is capped at MAX_RESPONSE_ITEMS. Never an error.
 */
export function readPage(query: Record<string, unknown>, settings: Settings, limitKey = "limit"): Page {
  const page = Math.max(1, toInt(query.page) ?? 1);
  let limit = toInt(query[limitKey]) ?? 0;
  if (limit <= 0) limit = settings.api.defaultPagingNum;
  if (limit > settings.api.maxResponseItems) limit = settings.api.maxResponseItems;
  return { page, limit, offset: (page - 1) * limit };
}

function toInt(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v !== "string" || !/^-?\d{1,15}$/.test(v.trim())) return undefined;
  return Number(v.trim());
}

/**
 * `X-Total-Count` and the `Link` header exactly as Gitea builds them: next, last, first, prev,
 * each the request URL re-rooted on ROOT_URL with `page` replaced.
 */
export function paginationHeaders(requestUrl: URL, rootUrl: string, total: number, p: Page): Record<string, string> {
  const headers: Record<string, string> = { "X-Total-Count": String(total) };
  // Gitea's paginator: the current page is clamped to the page count (0 pages for an empty list).
  const totalPages = Math.ceil(total / p.limit);
  const current = Math.min(p.page, totalPages);
  const link = (page: number, rel: string) => {
    const q = new URLSearchParams(requestUrl.search);
    q.set("page", String(page));
    return `<${rootUrl}${requestUrl.pathname.slice(1)}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (current < totalPages) links.push(link(current + 1, "next"));
  if (current !== totalPages) links.push(link(totalPages, "last"));
  if (current !== 1) links.push(link(1, "first"));
  if (current > 1) links.push(link(current - 1, "prev"));
  if (links.length) headers.Link = links.join(",");
  headers["Access-Control-Expose-Headers"] = links.length ? "X-Total-Count, Link" : "X-Total-Count";
  return headers;
}
