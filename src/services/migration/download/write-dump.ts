import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../env.ts";
import { cloneRemoteMirror } from "../../../git/remote.ts";
import { resolveCommits } from "../../../git/pull-heads.ts";
import { pullHeadRef } from "../../../git/pull-refs.ts";
import { git } from "../../../git/exec.ts";
import { maskUrlCredentials } from "../../../lib/url-credentials.ts";
import { reachRemote } from "../../mirror/remote-address.ts";
import {
  FILES,
  commentFile,
  repoRecord,
  reviewFile,
  toYaml,
  type CommentRecord,
  type DumpCounts,
  type IssueRecord,
  type LabelRecord,
  type PullRequestRecord,
  type ReleaseRecord,
  type RepoRecord,
  type ReviewRecord,
  type Unit,
} from "../format.ts";
import { DISALLOWED_HOST } from "./http.ts";
import { SERVICE_TYPES, SourceError, type Downloader, type SourceRepo } from "./source.ts";

/**
 * A download written as a dump (Gitea's RepositoryDumper): the source's records in the dump's
 * YAML files and its git data as a bare mirror in `git/`, each pull request's head at
 * `refs/pull/{n}/head`. `POST /repos/migrate` then imports the directory with restore-repo's code,
 * and `hearth dump-repo --clone_addr` leaves it for a later `restore-repo`.
 */

export interface WrittenDump extends DumpCounts {
  repo: SourceRepo;
}

const PER_PAGE = 50;
/** Pages of issues or pull requests read at most: 50 000 items. */
const MAX_PAGES = 1000;

async function allPages<T>(read: (page: number, perPage: number) => Promise<{ items: T[]; isEnd: boolean }>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, isEnd } = await read(page, PER_PAGE);
    out.push(...items);
    // Only the downloader knows the end: a page may be empty mid-list (GitHub's pages of issues that were all pull requests).
    if (isEnd) return out;
  }
  throw new SourceError(`the source has more than ${MAX_PAGES * PER_PAGE} items of one kind`);
}

/** Clones the source's git data into `target`, the host checked and pinned as for a mirror. */
async function cloneSource(env: Env, repo: SourceRepo, target: string): Promise<void> {
  const remote = await reachRemote(env, repo.cloneUrl, repo.cloneCredentials, env.settings.gitTimeout.migrate * 1000);
  if ("problem" in remote) {
    if (remote.problem === "refused") throw new SourceError(DISALLOWED_HOST);
    throw new SourceError(`the source's clone address ${JSON.stringify(repo.cloneUrl)} is not a URL`);
  }
  const r = await cloneRemoteMirror(remote, target);
  if (!r.ok) {
    const message = maskUrlCredentials(r.message);
    if (/Authentication failed|could not read Username|401/.test(message)) throw new SourceError(`Authentication failed: ${message}.`);
    throw new SourceError(`Migration failed: ${message}.`);
  }
}

/** Labels issues and pull requests carry that the label list lacks are added to it (a restore refuses unknown ones). */
function completeLabels(labels: LabelRecord[], items: { labels?: { name: string; color?: string; description?: string }[] | null }[]): LabelRecord[] {
  const known = new Set(labels.map((l) => l.name));
  const out = [...labels];
  for (const item of items) {
    for (const l of item.labels ?? []) {
      if (known.has(l.name)) continue;
      known.add(l.name);
      out.push({ name: l.name, color: l.color || "#cccccc", description: l.description ?? "" });
    }
  }
  return out;
}

/**
 * Each pull request's head at `refs/pull/{n}/head` in the dump's git data: the source's own ref
 * copied there when it keeps heads elsewhere. A request whose head the clone does not hold (its
 * fork gone, its ref never published) is left out: hearth keeps no pull request without commits.
 */
async function placePullHeads(gitDir: string, dl: Downloader, pulls: PullRequestRecord[]): Promise<PullRequestRecord[]> {
  const wanted = pulls.map((p) => p.head.sha || dl.pullHeadRef(p.number));
  const fromRef = await resolveCommits(gitDir, pulls.map((p) => dl.pullHeadRef(p.number)));
  const bySha = await resolveCommits(gitDir, wanted);
  const kept: PullRequestRecord[] = [];
  let updates = "";
  pulls.forEach((p, i) => {
    const sha = bySha[i] ?? fromRef[i];
    if (!sha) return;
    kept.push(p.head.sha && bySha[i] ? p : { ...p, head: { ...p.head, sha } });
    updates += `update ${pullHeadRef(p.number)} ${sha}\n`;
  });
  if (updates) await git(["update-ref", "--stdin"], { gitDir, input: updates });
  return kept;
}

function repoRecordOf(repo: SourceRepo, dl: Downloader, units: Set<Unit>, cloneAddr: string): RepoRecord {
  return repoRecord(
    {
      name: repo.name,
      owner: repo.owner,
      description: repo.description,
      clone_addr: cloneAddr,
      original_url: repo.originalUrl,
      is_private: repo.isPrivate,
      default_branch: repo.defaultBranch,
      service_type: SERVICE_TYPES[dl.service],
    },
    units,
  );
}

/**
 * Reads everything `units` asks for from `dl` and writes the dump into `base` (which must not
 * exist or be empty). The caller removes `base` on failure.
 */
export async function writeDump(env: Env, dl: Downloader, units: Set<Unit>, base: string, cloneAddr: string): Promise<WrittenDump> {
  const repo = await dl.repo();
  mkdirSync(base, { recursive: true });
  const write = (name: string, value: unknown) => writeFileSync(join(base, name), toYaml(value));
  await cloneSource(env, repo, join(base, FILES.git));
  const topics = dl.service === "git" ? [] : await dl.topics();
  write(FILES.topic, { topics });

  const counts: DumpCounts = { milestones: 0, labels: 0, issues: 0, comments: 0, pullRequests: 0, reviews: 0, releases: 0 };
  if (dl.service === "git") {
    write(FILES.repo, repoRecordOf(repo, dl, new Set(), cloneAddr));
    return { repo, ...counts };
  }

  const issues: IssueRecord[] = units.has("issues") ? await allPages((p, n) => dl.issues(p, n)) : [];
  let pulls: PullRequestRecord[] = units.has("pull_requests") ? await allPages((p, n) => dl.pullRequests(p, n)) : [];
  if (pulls.length) pulls = await placePullHeads(join(base, FILES.git), dl, pulls);

  if (units.has("milestones")) {
    const milestones = await dl.milestones();
    write(FILES.milestone, milestones);
    counts.milestones = milestones.length;
  }
  if (units.has("labels")) {
    const labels = completeLabels(await dl.labels(), [...issues, ...pulls]);
    write(FILES.label, labels);
    counts.labels = labels.length;
  }
  if (units.has("releases")) {
    const releases = await dl.releases();
    if (units.has("release_assets")) await downloadAssets(dl, base, releases);
    write(FILES.release, releases);
    counts.releases = releases.length;
  }
  if (units.has("issues")) {
    write(FILES.issue, issues);
    counts.issues = issues.length;
  }
  if (units.has("pull_requests")) {
    write(FILES.pullRequest, pulls);
    counts.pullRequests = pulls.length;
    const reviews = new Map<number, ReviewRecord[]>();
    for (const p of pulls) {
      const list = await dl.reviews(p.number);
      if (list.length) reviews.set(p.number, list);
    }
    if (reviews.size) mkdirSync(join(base, FILES.reviews));
    for (const [n, list] of reviews) {
      write(reviewFile(n), list);
      counts.reviews += list.length;
    }
  }
  if (units.has("comments")) {
    const comments = new Map<number, CommentRecord[]>();
    for (const n of [...issues, ...pulls].map((i) => i.number)) {
      const list = await dl.comments(n);
      if (list.length) comments.set(n, list);
    }
    if (comments.size) mkdirSync(join(base, FILES.comments));
    for (const [n, list] of comments) {
      write(commentFile(n), list);
      counts.comments += list.length;
    }
  }
  write(FILES.repo, repoRecordOf(repo, dl, units, cloneAddr));
  return { repo, ...counts };
}

/** Gitea's layout: `release_assets/{tag}/{name}`, a second asset of the same name numbered. */
async function downloadAssets(dl: Downloader, base: string, releases: ReleaseRecord[]): Promise<void> {
  for (const r of releases) {
    const dir = join(FILES.releaseAssets, r.tag_name);
    const used = new Set<string>();
    for (const a of r.assets ?? []) {
      let name = a.name.replace(/[/\\]/g, "_") || `asset-${a.id}`;
      for (let n = 2; used.has(name); n++) name = `${n}-${a.name}`;
      used.add(name);
      mkdirSync(join(base, dir), { recursive: true });
      const rel = join(dir, name);
      await dl.downloadAsset(a, join(base, rel));
      a.size = Bun.file(join(base, rel)).size;
      a.download_url = rel;
    }
  }
}
