import { asc, desc, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { actionRuns } from "../db/schema/index.ts";

/** Everyone who started a run of the repository (the runs page's actor filter, Gitea's GetActors). */
export function runActorIds(tx: Tx, repoId: number): number[] {
  return tx
    .selectDistinct({ id: actionRuns.triggerUserId })
    .from(actionRuns)
    .where(eq(actionRuns.repoId, repoId))
    .orderBy(asc(actionRuns.triggerUserId))
    .all()
    .map((r) => r.id);
}

/** The repository's newest run (`/actions/runs/latest`). */
export function latestRunIndex(tx: Tx, repoId: number): number | undefined {
  return tx
    .select({ index: actionRuns.index })
    .from(actionRuns)
    .where(eq(actionRuns.repoId, repoId))
    .orderBy(desc(actionRuns.id))
    .limit(1)
    .get()?.index;
}
