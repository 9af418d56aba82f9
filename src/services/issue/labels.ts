import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { CommentType, UserType, type IssueRow, type LabelRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as labelModel from "../../models/label.ts";
import { updateIssue } from "../../models/issue.ts";
import { nowUnix } from "../../lib/time.ts";
import { recordEvent } from "./events.ts";
import type { IssueContext } from "./lookup.ts";
import { issueChanged } from "./hooks.ts";
import type { SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/**
 * Labels on issues, with Gitea's exclusive scopes (models/issues/issue_label.go, 1.25): a label marked
 * exclusive whose name has a `/` (not first, not last) belongs to the scope before the last `/`, and
 * an issue holds at most one exclusive label per scope. The database does not enforce this; every
 * way labels reach an issue goes through here.
 *
 * Which label wins when a request names two of one scope follows from Gitea's order of work, kept
 * here step by step: the labels of a request are loaded ordered by name (GetLabelsByIDs), then
 * - adding (POST …/labels, and issue creation here) puts them on one after another, each exclusive
 *   one first taking off the issue's labels of its scope, so the last by name stays;
 * - replacing (PUT …/labels) first keeps only the last by name of each scope
 *   (RemoveDuplicateExclusiveLabels), then adds (as above) and takes off the rest.
 * A label already on the issue that shares a scope with an added one is taken off.
 */

/** Gitea's Label.ExclusiveScope: the name before its last `/`, for exclusive labels only. */
export function exclusiveScope(label: Pick<LabelRow, "exclusive" | "name">): string {
  if (!label.exclusive) return "";
  const at = label.name.lastIndexOf("/");
  if (at <= 0 || at === label.name.length - 1) return "";
  return label.name.slice(0, at);
}

/** Gitea's RemoveDuplicateExclusiveLabels: of each scope, only the last label of the list stays. */
export function removeDuplicateExclusive(list: LabelRow[]): LabelRow[] {
  return list.filter((label, i) => {
    const scope = exclusiveScope(label);
    return scope === "" || !list.slice(i + 1).some((other) => exclusiveScope(other) === scope);
  });
}

/**
 * One change of an issue's labels inside a transaction. `loaded` is Gitea's issue.Labels: read once,
 * added to as labels go on, never pruned as they come off (so a label taken off is found again and
 * its second removal does nothing, as in Gitea).
 */
class IssueLabeling {
  private readonly touched = new Set<number>();
  readonly loaded: LabelRow[];

  constructor(
    private readonly tx: Tx,
    private readonly issue: IssueRow,
    private readonly repo: RepoRow,
    private readonly doer: UserRow,
  ) {
    this.loaded = labelModel.labelsOfIssue(tx, issue.id);
  }

  /** A label this issue may carry: its repository's, or its owner organization's. */
  valid(label: LabelRow): boolean {
    return label.repoId === this.repo.id || (label.orgId > 0 && label.orgId === this.repo.ownerId);
  }

  /** newIssueLabels: each label not yet on the issue goes on, after taking off the others of its scope. */
  addAll(list: LabelRow[]): void {
    for (const label of list) {
      if (labelModel.hasIssueLabel(this.tx, this.issue.id, label.id) || !this.valid(label)) continue;
      const scope = exclusiveScope(label);
      if (scope) {
        const others = this.loaded.filter((l) => l.id !== label.id && exclusiveScope(l) === scope);
        for (const other of others) this.remove(other);
      }
      labelModel.addIssueLabel(this.tx, this.issue.id, label.id);
      recordEvent(this.tx, this.issue, this.doer, CommentType.Label, { labelId: label.id, content: "1" });
      this.touched.add(label.id);
      this.loaded.push(label);
    }
  }

  /** deleteIssueLabel: a label that is not on the issue changes nothing and leaves no event. */
  remove(label: LabelRow): void {
    if (!labelModel.removeIssueLabel(this.tx, this.issue.id, label.id)) return;
    recordEvent(this.tx, this.issue, this.doer, CommentType.Label, { labelId: label.id, content: "" });
    this.touched.add(label.id);
  }

  /** Recounts the labels that moved; Gitea's label events also move the issue's updated time. */
  finish(): boolean {
    if (this.touched.size === 0) return false;
    labelModel.recountLabels(this.tx, [...this.touched]);
    updateIssue(this.tx, this.issue.id, { updatedUnix: nowUnix() });
    return true;
  }
}

/** Gitea's NewIssueLabels (POST …/labels): `list` in the order Gitea loads it (by name). */
export function addLabelsTx(tx: Tx, issue: IssueRow, repo: RepoRow, doer: UserRow, list: LabelRow[]): boolean {
  const work = new IssueLabeling(tx, issue, repo, doer);
  work.addAll(list);
  return work.finish();
}

/** Gitea's ReplaceIssueLabels (PUT …/labels). */
export function replaceLabelsTx(tx: Tx, issue: IssueRow, repo: RepoRow, doer: UserRow, list: LabelRow[]): boolean {
  const work = new IssueLabeling(tx, issue, repo, doer);
  const wanted = removeDuplicateExclusive(list).sort((a, b) => a.id - b.id);
  const current = work.loaded.sort((a, b) => a.id - b.id);
  const toAdd: LabelRow[] = [];
  const toRemove: LabelRow[] = [];
  let a = 0;
  let r = 0;
  // A merge of the two id-ordered lists, as Gitea's: labels on both stay (unless no longer valid here).
  while (a < wanted.length && r < current.length) {
    const add = wanted[a]!;
    const rem = current[r]!;
    if (add.id === rem.id) {
      if (!work.valid(rem)) toRemove.push(rem);
      a++;
      r++;
    } else if (add.id < rem.id) {
      if (work.valid(add)) toAdd.push(add);
      a++;
    } else {
      toRemove.push(rem);
      r++;
    }
  }
  toAdd.push(...wanted.slice(a));
  toRemove.push(...current.slice(r));
  if (toAdd.length) work.addAll(toAdd);
  for (const label of toRemove) work.remove(label);
  return work.finish();
}

/** Gitea's ClearIssueLabels (DELETE …/labels): every label off, one event each. */
export function clearLabelsTx(tx: Tx, issue: IssueRow, repo: RepoRow, doer: UserRow): boolean {
  const work = new IssueLabeling(tx, issue, repo, doer);
  for (const label of [...work.loaded]) work.remove(label);
  return work.finish();
}

/**
 * Labels named by id on issue creation (createIssue). Gitea's NewIssue attaches every valid label
 * as given, exclusive or not; the product rule is that no issue holds two exclusive labels of one
 * scope, so creation adds them as POST …/labels does, with the same winner (the last by name).
 * With `replace`, as PUT …/labels.
 */
export function applyIssueLabels(
  tx: Tx,
  issue: IssueRow,
  repo: RepoRow,
  doer: UserRow,
  labelIds: number[],
  replace: boolean,
): void {
  const list = labelModel.getLabelsByIds(tx, labelIds);
  if (replace) replaceLabelsTx(tx, issue, repo, doer, list);
  else addLabelsTx(tx, issue, repo, doer, list);
}

/** The labels of a request to add or replace: ids, or names (the repository's and, for an organization's repository, its). */
export type LabelRefs = { ids: number[] } | { names: string[] };

/**
 * Gitea's prepareForReplaceOrAdd: names become the ids of the repository's labels (and its
 * organization's) with those names; then all are loaded ordered by name. Unknown ids and names are
 * dropped silently, as are labels of other repositories (when they are put on).
 */
export function labelsOfRequest(env: Env, ic: IssueContext, refs: LabelRefs): LabelRow[] {
  let ids: number[];
  if ("names" in refs) {
    ids = labelModel.labelIdsByNames(env.db, { repoId: ic.repo.id }, refs.names);
    if (ic.owner.type === UserType.Organization) {
      ids.push(...labelModel.labelIdsByNames(env.db, { orgId: ic.owner.id }, refs.names));
    }
  } else {
    ids = refs.ids;
  }
  return labelModel.getLabelsByIds(env.db, ids);
}

export type LabelChange = "add" | "replace" | "clear";

/** Adds, replaces or clears an issue's labels in one transaction; the caller checked write access. */
export function changeIssueLabels(env: Env, ic: SignedIn<IssueContext>, doer: Doer, change: LabelChange, list: LabelRow[] = []): void {
  writeTx(env.db, (tx) => {
    if (change === "add") addLabelsTx(tx, ic.issue, ic.repo, doer, list);
    else if (change === "replace") replaceLabelsTx(tx, ic.issue, ic.repo, doer, list);
    else clearLabelsTx(tx, ic.issue, ic.repo, doer);
    issueChanged(tx, env, { kind: "labels", issue: ic.issue, repo: ic.repo, doer, cleared: change === "clear" });
  });
}

/** Takes one label off an issue (Gitea's DeleteIssueLabel); a label the issue does not carry changes nothing. */
export function removeIssueLabel(env: Env, ic: SignedIn<IssueContext>, doer: Doer, label: LabelRow): void {
  writeTx(env.db, (tx) => {
    const work = new IssueLabeling(tx, ic.issue, ic.repo, doer);
    work.remove(label);
    work.finish();
    issueChanged(tx, env, { kind: "labels", issue: ic.issue, repo: ic.repo, doer, cleared: false });
  });
}

/** An issue's labels by name, as the API lists them. */
export function issueLabels(env: Env, issue: IssueRow): LabelRow[] {
  return labelModel.labelsOfIssue(env.db, issue.id);
}

/**
 * The label `{id}` of DELETE …/issues/{index}/labels/{id}: one this issue could carry (the
 * repository's or its organization's). Gitea looks the id up anywhere and answers 422 only when no
 * label has it; a label of another repository is reported the same way here, so its existence does
 * not leak.
 */
export function labelForIssue(env: Env, ic: IssueContext, id: number): LabelRow | undefined {
  if (id <= 0) return undefined;
  return labelModel.getLabelsForRepo(env.db, ic.repo.id, ic.repo.ownerId, [id])[0];
}
