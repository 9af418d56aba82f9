import type { RepoRow } from "../../db/schema/index.ts";

/** Gitea's merge styles, as the API's `Do` field names them. */
export const MERGE_STYLES = ["merge", "rebase", "rebase-merge", "squash", "fast-forward-only", "manually-merged"] as const;

export type MergeStyle = (typeof MERGE_STYLES)[number];

export const isMergeStyle = (s: string): s is MergeStyle => (MERGE_STYLES as readonly string[]).includes(s);

type MergeSettings = Pick<
  RepoRow,
  "allowMergeCommits" | "allowRebase" | "allowRebaseExplicit" | "allowSquashMerge" | "allowFastForwardOnlyMerge" | "allowManualMerge"
>;

/** Whether the repository's pull request settings allow a style (Gitea's IsMergeStyleAllowed). */
export function isMergeStyleAllowed(repo: MergeSettings, style: MergeStyle): boolean {
  switch (style) {
    case "merge":
      return repo.allowMergeCommits;
    case "rebase":
      return repo.allowRebase;
    case "rebase-merge":
      return repo.allowRebaseExplicit;
    case "squash":
      return repo.allowSquashMerge;
    case "fast-forward-only":
      return repo.allowFastForwardOnlyMerge;
    case "manually-merged":
      return repo.allowManualMerge;
  }
}
