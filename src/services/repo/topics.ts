import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import * as repos from "../../models/repo.ts";
import * as topicModel from "../../models/topic.ts";
import { NotFound } from "../../lib/errors.ts";
import type { Paging } from "./list.ts";
import type { Administers } from "../access/repo-access.ts";

export function topicsOfRepos(env: Env, repoIds: number[]): Map<number, string[]> {
  return repos.topicsOf(env.db, repoIds);
}

/** Gitea's limits: a topic is at most 35 characters of `[a-z0-9][-.a-z0-9]*`; a repository has at most 25. */
export const MAX_TOPICS_PER_REPO = 25;
const TOPIC_PATTERN = /^[a-z0-9][-.a-z0-9]*$/;

/** Gitea's Go strings.TrimSpace + ToLower. */
export function normalizeTopic(name: string): string {
  return name.toLowerCase().trim();
}

export function isValidTopic(name: string): boolean {
  return Buffer.byteLength(name) <= 35 && TOPIC_PATTERN.test(name);
}

/** Gitea's SanitizeAndValidateTopics: normalised, empty and repeated names dropped, the rest split. */
export function sanitizeTopics(names: string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const raw of names) {
    const name = normalizeTopic(raw);
    if (!name || seen.has(name)) continue;
    if (isValidTopic(name)) {
      valid.push(name);
      seen.add(name);
    } else {
      invalid.push(name);
    }
  }
  return { valid, invalid };
}

/** Why a set of topics was refused, in Gitea's 422 body shape (no `url`, unlike other errors). */
export type TopicProblem = { invalidTopics?: string[] | string | null; message: string };

export function listRepoTopics(env: Env, repoId: number, page: Paging): { names: string[]; total: number } {
  return topicModel.listRepoTopicNames(env.db, repoId, page.offset, page.limit);
}

/** PUT /repos/{o}/{r}/topics: replaces the whole set, or says why not (nothing is saved then). */
export function replaceRepoTopics(env: Env, rc: Administers, names: string[]): TopicProblem | undefined {
  const repoId = rc.repo.id;
  const { valid, invalid } = sanitizeTopics(names);
  if (valid.length > MAX_TOPICS_PER_REPO) {
    return { invalidTopics: null, message: "Exceeding maximum number of topics per repo" };
  }
  if (invalid.length) return { invalidTopics: invalid, message: "Topic names are invalid" };
  writeTx(env.db, (tx) => topicModel.setRepoTopics(tx, repoId, valid));
  return undefined;
}

/** PUT /repos/{o}/{r}/topics/{topic}: adding a topic the repository has is a no-op. */
export function addRepoTopic(env: Env, rc: Administers, raw: string): TopicProblem | undefined {
  const repoId = rc.repo.id;
  const name = normalizeTopic(raw);
  if (!isValidTopic(name)) return { invalidTopics: name, message: "Topic name is invalid" };
  return writeTx(env.db, (tx) => {
    // Gitea counts before looking for the topic: a full repository refuses even one it already has.
    if (topicModel.countRepoTopics(tx, repoId) >= MAX_TOPICS_PER_REPO) {
      return { message: "Exceeding maximum allowed topics per repo." };
    }
    topicModel.addRepoTopic(tx, repoId, name);
    return undefined;
  });
}

/** DELETE /repos/{o}/{r}/topics/{topic}: 404 when the repository does not have it. */
export function removeRepoTopic(env: Env, rc: Administers, raw: string): TopicProblem | undefined {
  const repoId = rc.repo.id;
  const name = normalizeTopic(raw);
  if (!isValidTopic(name)) return { invalidTopics: name, message: "Topic name is invalid" };
  const removed = writeTx(env.db, (tx) => topicModel.removeRepoTopic(tx, repoId, name));
  if (!removed) throw new NotFound();
  return undefined;
}

/** GET /topics/search: topics containing `keyword`, most used first. */
export function searchTopics(env: Env, keyword: string, page: Paging) {
  return topicModel.searchTopics(env.db, keyword, page.offset, page.limit);
}
