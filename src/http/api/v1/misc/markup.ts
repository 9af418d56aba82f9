import * as v from "valibot";
import { operation } from "../../../route.ts";
import { MarkdownOption, MarkupOption, RenderedHTML } from "../../../../shapes/markup.ts";
import { markupRequestOf, renderMarkupRequest } from "../../../../services/markup/request.ts";

// Gitea serves these to any signed-in caller (reqToken) with no token scope of their own.
const access = { scope: "public", signIn: true } as const;

/** Gitea's markup rendering, answered as `text/html` (services/markup/request.ts). */
export const markupOperations = [
  operation({
    method: "POST",
    path: "/markdown",
    operationId: "renderMarkdown",
    tag: "miscellaneous",
    summary: "Render a markdown document as HTML",
    access,
    body: MarkdownOption,
    produces: "text/html",
    responses: { 200: RenderedHTML, 422: null },
    handler: ({ env, doer, body }) => renderMarkupRequest(env, doer, markupRequestOf(body, { filePath: false })),
  }),
  operation({
    method: "POST",
    path: "/markdown/raw",
    operationId: "renderMarkdownRaw",
    tag: "miscellaneous",
    summary: "Render raw markdown as HTML",
    access,
    body: v.string(),
    bodyText: true,
    produces: "text/html",
    responses: { 200: RenderedHTML, 422: null },
    handler: ({ env, doer, body }) => renderMarkupRequest(env, doer, { text: body, mode: "markdown", context: "", filePath: "" }),
  }),
  operation({
    method: "POST",
    path: "/markup",
    operationId: "renderMarkup",
    tag: "miscellaneous",
    summary: "Render a markup document as HTML",
    access,
    body: MarkupOption,
    produces: "text/html",
    responses: { 200: RenderedHTML, 422: null },
    handler: ({ env, doer, body }) => renderMarkupRequest(env, doer, markupRequestOf(body)),
  }),
];
