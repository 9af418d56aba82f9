import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";

// Gitea's MarkdownOption and MarkupOption keep Go's field names (`Text`, `Mode`...); Go reads JSON
// keys without regard to case, so `text` and `mode` arrive as well (services/markup/request.ts).

export const MarkdownOption = named(
  "MarkdownOption",
  v.looseObject({
    Text: opt(v.string()),
    Mode: opt(v.string()),
    Context: opt(v.string()),
    Wiki: opt(v.boolean()),
  }),
);

export const MarkupOption = named(
  "MarkupOption",
  v.looseObject({
    Text: opt(v.string()),
    Mode: opt(v.string()),
    Context: opt(v.string()),
    FilePath: opt(v.string()),
    Wiki: opt(v.boolean()),
  }),
);

/** MarkdownRender / MarkupRender: the rendered document, as `text/html`. */
export const RenderedHTML = v.string();
