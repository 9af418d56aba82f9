// Types for the two markup dependencies that ship none.

/** markdown-it-task-lists 2.1: `- [ ]` / `- [x]` list items as disabled checkboxes. */
declare module "markdown-it-task-lists" {
  import type { MarkdownIt } from "markdown-it";
  export default function taskLists(md: MarkdownIt, options?: { enabled?: boolean; label?: boolean; labelAfter?: boolean }): void;
}

/** highlight.js's language modules (its types cover the core only). */
declare module "highlight.js/lib/languages/*" {
  import type { LanguageFn } from "highlight.js";
  const language: LanguageFn;
  export default language;
}
