import type { Env } from "../env.ts";
import type { RepoRow } from "../../db/schema/index.ts";
import { allSecretsOf } from "../../models/secret.ts";
import { allVariablesOf } from "../../models/action-variable.ts";
import { openSecretData } from "../secrets/seal.ts";

/**
 * Gitea's GetVariablesOfRun: the site's variables, then the owner's, then the repository's, a
 * later level's variable replacing an earlier one of the same name.
 */
export function variablesOfRepo(env: Env, repo: Pick<RepoRow, "id" | "ownerId">): Record<string, string> {
  const out: Record<string, string> = {};
  for (const level of [{ ownerId: 0 }, { ownerId: repo.ownerId }, { repoId: repo.id }]) {
    for (const v of allVariablesOf(env.db, level)) out[v.name] = v.data;
  }
  return out;
}

/**
 * Gitea's GetSecretsOfTask: `GITEA_TOKEN` and `GITHUB_TOKEN` are the task's token; the owner's and
 * the repository's secrets follow (the repository's winning), except for a pull request from a
 * fork, whose code must not see them (a `pull_request_target` run works on the base and gets them).
 */
export function secretsOfTask(env: Env, repo: Pick<RepoRow, "id" | "ownerId">, token: string, forkPullRequest: boolean): Record<string, string> {
  const out: Record<string, string> = { GITHUB_TOKEN: token, GITEA_TOKEN: token };
  if (forkPullRequest) return out;
  for (const level of [{ ownerId: repo.ownerId }, { repoId: repo.id }]) {
    for (const s of allSecretsOf(env.db, level)) {
      try {
        out[s.name] = openSecretData(env, s);
      } catch (err) {
        env.log.error("secret not opened", { secret: s.id, error: (err as Error).message });
      }
    }
  }
  return out;
}
