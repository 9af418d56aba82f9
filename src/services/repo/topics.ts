import type { Env } from "../env.ts";
import * as repos from "../../models/repo.ts";

export function topicsOfRepos(env: Env, repoIds: number[]): Map<number, string[]> {
  return repos.topicsOf(env.db, repoIds);
}
