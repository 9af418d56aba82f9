import { eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { labels, milestones, teamRepos } from "../db/schema/index.ts";

/** Lookups of the cross-repository issue search; the repositories it may look in are decided by the service. */

/** Every label with one of these names, in any repository or organization (Gitea's GetLabelIDsByNames). */
export function labelIdsNamed(tx: Tx, names: string[]): number[] {
  if (names.length === 0) return [];
  return tx.select({ id: labels.id }).from(labels).where(inArray(labels.name, names)).all().map((r) => r.id);
}

/** Every milestone with one of these names, in any repository (Gitea's GetMilestoneIDsByNames). */
export function milestoneIdsNamed(tx: Tx, names: string[]): number[] {
  if (names.length === 0) return [];
  return tx.select({ id: milestones.id }).from(milestones).where(inArray(milestones.name, names)).all().map((r) => r.id);
}

/** The repositories a team has. */
export function repoIdsOfTeam(tx: Tx, teamId: number): number[] {
  return tx.select({ repoId: teamRepos.repoId }).from(teamRepos).where(eq(teamRepos.teamId, teamId)).all().map((r) => r.repoId);
}
