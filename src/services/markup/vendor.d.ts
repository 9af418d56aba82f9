// Types for a markup dependency that ships none.

/** markdown-it-task-lists 2.1: `- [ ]` / `- [x]` list items as disabled checkboxes. */
declare module "markdown-it-task-lists" {
  import type { MarkdownIt } from "markdown-it";
  export default function taskLists(md: MarkdownIt, options?: { enabled?: boolean; label?: boolean; labelAfter?: boolean }): void;
}
