import type { Tx } from "../../db/client.ts";
import { CommentType, type IssueRow, type LabelRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as labelModel from "../../models/label.ts";
import { recordEvent } from "./events.ts";

/** Gitea's Label.ExclusiveScope: the name before its last `/`, for exclusive labels only. */
export function exclusiveScope(label: Pick<LabelRow, "exclusive" | "name">): string {
  if (!label.exclusive) return "";
  const at = label.name.lastIndexOf("/");
  if (at <= 0 || at === label.name.length - 1) return "";
  return label.name.slice(0, at);
}

/**
 * Puts labels on an issue the way Gitea's newIssueLabels does, one after another: a label the issue
 * has, or one foreign to the repository, is skipped; adding an exclusive label first takes off the
 * issue's other labels of its scope. So the issue never holds two exclusive labels of one scope.
 * With `replace`, labels not named are taken off first.
 */
export function applyIssueLabels(
  tx: Tx,
  issue: IssueRow,
  repo: RepoRow,
  doer: UserRow,
  labelIds: number[],
  replace: boolean,
): void {
  const wanted = labelModel.getLabelsForRepo(tx, repo.id, repo.ownerId, labelIds);
  const byId = new Map(wanted.map((l) => [l.id, l]));
  const ordered = [...new Set(labelIds)].map((id) => byId.get(id)).filter((l): l is LabelRow => l !== undefined);
  const touched: number[] = [];
  const current = new Map(
    labelModel.getLabelsForRepo(tx, repo.id, repo.ownerId, labelModel.labelIdsOfIssue(tx, issue.id)).map((l) => [l.id, l]),
  );
  const take = (label: LabelRow) => {
    if (labelModel.removeIssueLabel(tx, issue.id, label.id)) {
      recordEvent(tx, issue, doer, CommentType.Label, { labelId: label.id, content: "" });
      touched.push(label.id);
    }
    current.delete(label.id);
  };
  if (replace) for (const l of [...current.values()]) if (!byId.has(l.id)) take(l);
  for (const label of ordered) {
    if (current.has(label.id)) continue;
    const scope = exclusiveScope(label);
    if (scope) for (const other of [...current.values()]) if (exclusiveScope(other) === scope) take(other);
    labelModel.addIssueLabel(tx, issue.id, label.id);
    recordEvent(tx, issue, doer, CommentType.Label, { labelId: label.id, content: "1" });
    touched.push(label.id);
    current.set(label.id, label);
  }
  labelModel.recountLabels(tx, touched);
}
