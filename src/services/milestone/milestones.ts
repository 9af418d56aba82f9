import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { MilestoneRow } from "../../db/schema/index.ts";
import * as milestones from "../../models/milestone.ts";
import { NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { parseGoInt } from "./goint.ts";
import type { SignedIn } from "../access/repo-access.ts";

/**
 * Gitea's list of a repository's milestones: `state` open or closed filters, anything else (the
 * documented default "open" included only when asked for) lists all, as Gitea 1.25 does; `name`
 * keeps those whose title contains it, ignoring case. Ordered by due date (none last), then title.
 */
export function listMilestones(
  env: Env,
  rc: RepoContext,
  query: { state?: string; name?: string },
  page: { limit: number; offset: number },
) {
  const isClosed = query.state === "closed" ? true : query.state === "open" ? false : undefined;
  return milestones.listMilestones(env.db, rc.repo.id, { isClosed, name: query.name }, page);
}

/**
 * `{id}` of …/milestones/{id}: Gitea's getMilestoneByIDOrName. The text is read as a Go integer
 * literal (strconv.ParseInt base 0: `12`, `0x0c`, `014`, `0b1100`); a non-zero number that is a
 * milestone of this repository wins, otherwise the text is taken as an exact title.
 */
export function milestoneByIdOrName(env: Env, rc: RepoContext, idOrName: string): MilestoneRow {
  const id = parseGoInt(idOrName) ?? 0;
  const byId = id !== 0 ? milestones.getMilestone(env.db, rc.repo.id, id) : undefined;
  const found = byId ?? milestones.getMilestoneByName(env.db, rc.repo.id, idOrName);
  if (!found) throw new NotFound();
  return found;
}

export interface CreateMilestoneInput {
  title: string;
  description?: string;
  /** Unix seconds; none for no due date. */
  dueUnix?: number;
  state?: string;
}

/** Gitea's CreateMilestone: the title trimmed; `state: "closed"` creates it closed (closed now). */
export function createMilestone(env: Env, rc: SignedIn<RepoContext>, input: CreateMilestoneInput): MilestoneRow {
  const now = nowUnix();
  const closed = input.state === "closed";
  return writeTx(env.db, (tx) => {
    const m = milestones.insertMilestone(tx, {
      repoId: rc.repo.id,
      name: input.title.trim(),
      content: input.description ?? "",
      deadlineUnix: dueOf(input.dueUnix),
      isClosed: closed,
      closedDateUnix: closed ? now : 0,
      createdUnix: now,
      updatedUnix: now,
    });
    milestones.recountRepoMilestones(tx, rc.repo.id);
    return m;
  });
}

export interface EditMilestoneInput {
  title?: string;
  description?: string;
  /** A new due date; Gitea's API cannot remove one. */
  dueUnix?: number;
  /** "closed" closes; any other value opens. */
  state?: string;
}

/**
 * Gitea's EditMilestone: an empty title keeps the old one; a state other than "closed" opens it;
 * closing records the time (closed_at), reopening keeps it for the next close to replace.
 */
export function editMilestone(env: Env, rc: SignedIn<RepoContext>, m: MilestoneRow, input: EditMilestoneInput): MilestoneRow {
  const now = nowUnix();
  const patch: Partial<MilestoneRow> = { updatedUnix: now };
  if (input.title) patch.name = input.title.trim();
  if (input.description !== undefined) patch.content = input.description;
  const due = dueOf(input.dueUnix);
  if (due > 0) patch.deadlineUnix = due;
  if (input.state !== undefined) {
    patch.isClosed = input.state === "closed";
    if (patch.isClosed && !m.isClosed) patch.closedDateUnix = now;
  }
  return writeTx(env.db, (tx) => {
    milestones.updateMilestone(tx, m.id, patch);
    // Gitea recounts the issues on every update.
    milestones.recountMilestone(tx, m.id);
    if (patch.isClosed !== undefined && patch.isClosed !== m.isClosed) milestones.recountRepoMilestones(tx, rc.repo.id);
    return milestones.getMilestone(tx, rc.repo.id, m.id)!;
  });
}

/** Deletes a milestone; its issues stay, without a milestone (Gitea's DeleteMilestoneByRepoID). */
export function deleteMilestone(env: Env, rc: SignedIn<RepoContext>, m: MilestoneRow): void {
  writeTx(env.db, (tx) => {
    milestones.deleteMilestoneRow(tx, m.id);
    milestones.recountRepoMilestones(tx, rc.repo.id);
  });
}

/** A due date of the zero time or before 1970 counts as none (Gitea's zero-time checks). */
function dueOf(unix: number | undefined): number {
  return unix !== undefined && unix > 0 ? unix : 0;
}

/** `{id}` of the web's `/milestone/{id}`: a milestone of this repository by its number id only (Gitea's PathParamInt64), else 404. */
export function milestoneById(env: Env, rc: RepoContext, id: string): MilestoneRow {
  const found = /^\d{1,15}$/.test(id) ? milestones.getMilestone(env.db, rc.repo.id, Number(id)) : undefined;
  if (!found) throw new NotFound();
  return found;
}
