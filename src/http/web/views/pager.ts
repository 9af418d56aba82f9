import { html, type Html } from "../../../lib/html.ts";

/** The page number asked for (`?page=`), 1 when missing or not a positive number. */
export function pageNumber(query: URLSearchParams): number {
  const n = Number(query.get("page") ?? "1");
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}

/** Links to the pages of a list around the current one, each keeping the page's other query parameters. */
export function pager(url: URL, page: number, perPage: number, total: number): Html {
  const last = Math.max(1, Math.ceil(total / perPage));
  if (last <= 1) return html``;
  const href = (n: number) => {
    const q = new URLSearchParams(url.search);
    q.set("page", String(n));
    return `?${q.toString()}`;
  };
  const shown = new Set([1, last, page - 2, page - 1, page, page + 1, page + 2].filter((n) => n >= 1 && n <= last));
  const numbers = [...shown].sort((a, b) => a - b);
  const items: Html[] = [];
  if (page > 1) items.push(html`<a href="${href(page - 1)}" rel="prev">Previous</a>`);
  numbers.forEach((n, i) => {
    if (i > 0 && n - numbers[i - 1]! > 1) items.push(html`<span class="gap" aria-hidden="true">…</span>`);
    items.push(n === page ? html`<span aria-current="page">${n}</span>` : html`<a href="${href(n)}">${n}</a>`);
  });
  if (page < last) items.push(html`<a href="${href(page + 1)}" rel="next">Next</a>`);
  return html`<nav class="pager" aria-label="Pages">${items}</nav>`;
}
