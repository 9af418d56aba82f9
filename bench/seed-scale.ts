/**
 * Fills a hearth database with a forge at scale, through the data layer (drizzle over the schema),
 * not through HTTP: 20,000 repositories and 1,000,000 issues by default, in a minute or two.
 *
 *   bun bench/seed-scale.ts --db WORK/data/hearth.db --repo-root WORK/data/repositories --owner bench
 *     [--repos 20000] [--issues 1000000] [--seed 1]
 *
 * The `--owner` account must exist (bench/lists.ts makes it with `hearth admin user create`, so its
 * password and token are real). Laid out for the list benchmarks:
 *   - `{owner}/big`: all issues the others leave, 10% pull requests, 30% closed, 20 labels (one or two
 *     an issue), 10 milestones, a fifth assigned; the first 300,000 with one comment, #1 with 2,000;
 *   - `{owner}/small`: 1,000 issues, the same mix (a one-item page must cost the same in both);
 *   - the organisation `big-org` with 2,000 repositories of 5 issues each (issue search across
 *     repositories, org repository lists), and 1,000 users and 49 more organisations owning the rest;
 *   - 20,000 notifications for the owner; 10% of repositories private.
 * Only big and small get git repositories (main plus 50 head branches for the pull requests): the
 * list endpoints measured here read git for nothing else.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { eq, getTableColumns, type Table } from "drizzle-orm";
import { openDatabase, type DB } from "../src/db/client.ts";
import {
  branches,
  comments,
  issueAssignees,
  issueIndexes,
  issueLabels,
  issues,
  labels,
  milestones,
  NotificationSource,
  NotificationStatus,
  notifications,
  orgUsers,
  pullRequests,
  repositories,
  teams,
  teamUsers,
  UserType,
  users,
  Visibility,
} from "../src/db/schema/index.ts";
import { repoPath } from "../src/git/repo-init.ts";
import { prng } from "./gen-repo.ts";

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const num = (name: string, def: number) => Number(arg(name) ?? def);

export interface SeedOptions {
  db: string;
  repoRoot: string;
  owner: string;
  repos: number;
  issues: number;
  seed: number;
}

export interface SeedResult {
  big: { name: string; issues: number; pulls: number };
  small: { name: string; issues: number };
  org: string;
  orgRepos: number;
  users: number;
  repos: number;
  issues: number;
  comments: number;
  notifications: number;
  seconds: number;
}

/** Inserts rows in statements as large as SQLite's 32,766 bound parameters allow. */
function insertAll<T extends Table>(db: DB, table: T, rows: T["$inferInsert"][]): void {
  if (rows.length === 0) return;
  const per = Math.max(1, Math.floor(32_000 / Object.keys(getTableColumns(table)).length));
  for (let i = 0; i < rows.length; i += per) db.insert(table).values(rows.slice(i, i + per)).run();
}

const WORDS = "crash leak slow fix parser index cache build docs flaky test merge branch token route render upload mirror hook label".split(" ");

async function gitRepoWithBranches(path: string, heads: string[]): Promise<{ name: string; sha: string; unix: number }[]> {
  mkdirSync(dirname(path), { recursive: true });
  const git = (args: string[], input?: string) => {
    const p = Bun.spawnSync(["git", ...args], { stdin: input === undefined ? "ignore" : Buffer.from(input), env: { ...process.env, GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@example.com", GIT_AUTHOR_DATE: "1700000000 +0000", GIT_COMMITTER_DATE: "1700000000 +0000" } });
    if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${p.stderr}`);
    return p.stdout.toString().trim();
  };
  git(["init", "--bare", "-q", "-b", "main", path]);
  const blob = git(["--git-dir", path, "hash-object", "-w", "--stdin"], "# bench\n");
  const tree = git(["--git-dir", path, "mktree"], `100644 blob ${blob}\tREADME.md\n`);
  const root = git(["--git-dir", path, "commit-tree", tree, "-m", "initial"]);
  git(["--git-dir", path, "update-ref", "refs/heads/main", root]);
  const out = [{ name: "main", sha: root, unix: 1_700_000_000 }];
  let updates = "";
  for (const head of heads) {
    const b = git(["--git-dir", path, "hash-object", "-w", "--stdin"], `# ${head}\n`);
    const t = git(["--git-dir", path, "mktree"], `100644 blob ${b}\tREADME.md\n`);
    const c = git(["--git-dir", path, "commit-tree", t, "-p", root, "-m", `work on ${head}`]);
    updates += `create refs/heads/${head} ${c}\n`;
    out.push({ name: head, sha: c, unix: 1_700_000_000 });
  }
  git(["--git-dir", path, "update-ref", "--stdin"], updates);
  return out;
}

export async function seedScale(o: SeedOptions): Promise<SeedResult> {
  const t0 = performance.now();
  const rnd = prng(o.seed);
  const { db, sqlite, close } = openDatabase(o.db);
  // A bulk load, not user data: no fsync per statement, one transaction per table.
  sqlite.exec("PRAGMA synchronous = OFF");
  const owner = db.select().from(users).where(eq(users.lowerName, o.owner.toLowerCase())).get();
  if (!owner) throw new Error(`no account ${o.owner}: create it first`);
  const now = Math.floor(Date.now() / 1000);
  const base = now - 3 * 365 * 86_400;

  // Accounts: 1,000 users and 50 organisations.
  const people: (typeof users.$inferInsert)[] = [];
  for (let i = 1; i <= 1000; i++) {
    const name = `user${String(i).padStart(4, "0")}`;
    people.push({ name, lowerName: name, email: `${name}@example.com`, fullName: `User ${i}`, createdUnix: base, updatedUnix: base, type: UserType.Individual });
  }
  for (let i = 0; i < 50; i++) {
    const name = i === 0 ? "big-org" : `org${String(i).padStart(2, "0")}`;
    people.push({ name, lowerName: name, fullName: `Organisation ${i}`, createdUnix: base, updatedUnix: base, type: UserType.Organization, visibility: Visibility.Public });
  }
  db.transaction((tx) => insertAll(tx as DB, users, people));
  const accounts = db.select({ id: users.id, name: users.name, type: users.type }).from(users).all().filter((u) => u.id !== owner.id);
  const orgs = accounts.filter((u) => u.type === UserType.Organization);
  const individuals = accounts.filter((u) => u.type === UserType.Individual);
  const bigOrg = orgs.find((u) => u.name === "big-org")!;
  // Every organisation has an Owners team with the bench account in it, as creating one through the API does.
  db.transaction((tx) => {
    for (const org of orgs) {
      const team = tx.insert(teams).values({ orgId: org.id, lowerName: "owners", name: "Owners", authorize: 4, numMembers: 1, includesAllRepositories: true, canCreateOrgRepo: true }).returning().get();
      tx.insert(teamUsers).values({ orgId: org.id, teamId: team.id, uid: owner.id }).run();
      tx.insert(orgUsers).values({ orgId: org.id, uid: owner.id, isPublic: true }).run();
    }
  });

  // Repositories: big and small for the owner, 2,000 in big-org, the rest spread.
  type RepoSeed = { ownerId: number; ownerName: string; name: string; issues: number; isPrivate: boolean };
  const plan: RepoSeed[] = [
    { ownerId: owner.id, ownerName: owner.name, name: "big", issues: 0, isPrivate: false },
    { ownerId: owner.id, ownerName: owner.name, name: "small", issues: 1000, isPrivate: false },
  ];
  const orgRepos = Math.min(2000, Math.max(0, o.repos - 2));
  for (let i = 0; i < orgRepos; i++) plan.push({ ownerId: bigOrg.id, ownerName: bigOrg.name, name: `service-${i}`, issues: 5, isPrivate: i % 10 === 9 });
  for (let i = plan.length; i < o.repos; i++) {
    const who = i % 10 === 0 ? owner : i % 3 === 0 ? orgs[i % orgs.length]! : individuals[i % individuals.length]!;
    plan.push({ ownerId: who.id, ownerName: who.name, name: `${WORDS[i % WORDS.length]}-${i}`, issues: 0, isPrivate: i % 10 === 9 });
  }
  const others = plan.reduce((n, r) => n + r.issues, 0);
  plan[0]!.issues = Math.max(0, o.issues - others);
  db.transaction((tx) =>
    insertAll(
      tx as DB,
      repositories,
      plan.map((r, i) => ({
        ownerId: r.ownerId,
        ownerName: r.ownerName,
        name: r.name,
        lowerName: r.name.toLowerCase(),
        description: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} service number ${i}`,
        defaultBranch: "main",
        isPrivate: r.isPrivate,
        isEmpty: i > 1,
        numStars: Math.floor(rnd() * 100),
        size: Math.floor(rnd() * 1_000_000),
        createdUnix: base + i * 600,
        updatedUnix: base + i * 600 + Math.floor(rnd() * 86_400 * 300),
      })),
    ),
  );
  const repoRows = db.select({ id: repositories.id, name: repositories.name, ownerId: repositories.ownerId, ownerName: repositories.ownerName }).from(repositories).all();
  const repoId = new Map(repoRows.map((r) => [`${r.ownerId}/${r.name}`, r.id]));
  const bigId = repoId.get(`${owner.id}/big`)!;
  const smallId = repoId.get(`${owner.id}/small`)!;

  // Git for big and small: main plus 50 head branches; the branch table follows the refs.
  const heads = Array.from({ length: 50 }, (_, i) => `feature/${i}`);
  for (const [id, name] of [[bigId, "big"], [smallId, "small"]] as const) {
    const refs = await gitRepoWithBranches(repoPath(o.repoRoot, owner.name, name), heads);
    db.update(repositories).set({ isEmpty: false }).where(eq(repositories.id, id)).run();
    insertAll(db, branches, refs.map((b) => ({ repoId: id, name: b.name, commitId: b.sha, commitMessage: "work", commitUnix: b.unix, pusherId: owner.id, createdUnix: b.unix, updatedUnix: b.unix })));
  }

  // Labels and milestones of big and small.
  const labelIds = new Map<number, number[]>();
  const milestoneIds = new Map<number, number[]>();
  db.transaction((tx) => {
    for (const id of [bigId, smallId]) {
      insertAll(tx as DB, labels, Array.from({ length: 20 }, (_, i) => ({ repoId: id, name: `${WORDS[i]}`, color: "#e11d21", description: `about ${WORDS[i]}`, createdUnix: base, updatedUnix: base })));
      insertAll(tx as DB, milestones, Array.from({ length: 10 }, (_, i) => ({ repoId: id, name: `v${i + 1}.0`, content: "", createdUnix: base, updatedUnix: base })));
    }
  });
  for (const id of [bigId, smallId]) {
    labelIds.set(id, db.select({ id: labels.id }).from(labels).where(eq(labels.repoId, id)).all().map((l) => l.id));
    milestoneIds.set(id, db.select({ id: milestones.id }).from(milestones).where(eq(milestones.repoId, id)).all().map((m) => m.id));
  }

  // Issues, in chunks so memory stays flat; relations right after each chunk.
  let issueTotal = 0;
  let commentTotal = 0;
  const counters = new Map<number, { issues: number; closedIssues: number; pulls: number; closedPulls: number }>();
  const CHUNK = 20_000;
  const mix = (id: number) => id === bigId || id === smallId;
  for (const r of plan) {
    const rid = repoId.get(`${r.ownerId}/${r.name}`)!;
    const c = { issues: 0, closedIssues: 0, pulls: 0, closedPulls: 0 };
    for (let start = 1; start <= r.issues; start += CHUNK) {
      const end = Math.min(r.issues, start + CHUNK - 1);
      const rows: (typeof issues.$inferInsert)[] = [];
      for (let n = start; n <= end; n++) {
        const isPull = mix(rid) && n % 10 === 0;
        const isClosed = Math.floor(n / 10) % 10 < 3;
        const created = base + Math.floor(((n - 1) / Math.max(1, r.issues)) * 3 * 365 * 86_400);
        const poster = n % 4 === 0 ? owner.id : individuals[(n * 13) % individuals.length]!.id;
        if (isPull) (isClosed ? c.closedPulls++ : 0, c.pulls++);
        else (isClosed ? c.closedIssues++ : 0, c.issues++);
        rows.push({
          repoId: rid,
          index: n,
          posterId: poster,
          title: `${WORDS[n % WORDS.length]} in ${WORDS[(n * 3) % WORDS.length]} when ${WORDS[(n * 7) % WORDS.length]} (#${n})`,
          content: `Steps to reproduce ${n}: run the ${WORDS[(n * 11) % WORDS.length]} and watch the ${WORDS[(n * 5) % WORDS.length]}.`,
          milestoneId: mix(rid) && n % 11 ? milestoneIds.get(rid)![n % 10]! : 0,
          isClosed,
          isPull,
          numComments: rid === bigId && n <= 300_000 ? (n === 1 ? 2000 : 1) : 0,
          createdUnix: created,
          updatedUnix: created + (n % 97) * 3600,
          closedUnix: isClosed ? created + 86_400 : 0,
        });
      }
      db.transaction((tx) => insertAll(tx as DB, issues, rows));
      const ids = db
        .select({ id: issues.id, index: issues.index, isPull: issues.isPull, isClosed: issues.isClosed, posterId: issues.posterId, createdUnix: issues.createdUnix })
        .from(issues)
        .where(eq(issues.repoId, rid))
        .orderBy(issues.index)
        .limit(end - start + 1)
        .offset(start - 1)
        .all();
      issueTotal += ids.length;
      if (!mix(rid)) continue;
      const lab = labelIds.get(rid)!;
      const il: (typeof issueLabels.$inferInsert)[] = [];
      const ia: (typeof issueAssignees.$inferInsert)[] = [];
      const pr: (typeof pullRequests.$inferInsert)[] = [];
      const cm: (typeof comments.$inferInsert)[] = [];
      for (const i of ids) {
        il.push({ issueId: i.id, labelId: lab[i.index % 20]! });
        if (i.index % 2) il.push({ issueId: i.id, labelId: lab[(i.index * 7 + 3) % 20]! });
        if (i.index % 5 === 0) ia.push({ issueId: i.id, assigneeId: individuals[i.index % 50]!.id });
        if (i.isPull) pr.push({ issueId: i.id, index: i.index, baseRepoId: rid, headRepoId: rid, headBranch: heads[i.index % 50]!, baseBranch: "main", status: 2, hasMerged: i.isClosed && i.index % 20 === 0, mergedUnix: i.isClosed && i.index % 20 === 0 ? i.createdUnix + 86_400 : 0, mergerId: i.isClosed && i.index % 20 === 0 ? owner.id : 0 });
        const times = rid === bigId && i.index <= 300_000 ? (i.index === 1 ? 2000 : 1) : 0;
        for (let k = 0; k < times; k++) cm.push({ issueId: i.id, repoId: rid, posterId: individuals[(i.index + k) % individuals.length]!.id, content: `Seen it too (${k}).`, createdUnix: i.createdUnix + 60 * (k + 1), updatedUnix: i.createdUnix + 60 * (k + 1) });
      }
      db.transaction((tx) => {
        insertAll(tx as DB, issueLabels, il);
        insertAll(tx as DB, issueAssignees, ia);
        insertAll(tx as DB, pullRequests, pr);
        insertAll(tx as DB, comments, cm);
      });
      commentTotal += cm.length;
    }
    counters.set(rid, c);
  }
  db.transaction((tx) => {
    for (const [rid, c] of counters) {
      tx.update(repositories).set({ numIssues: c.issues, numClosedIssues: c.closedIssues, numPulls: c.pulls, numClosedPulls: c.closedPulls, numComments: rid === bigId ? commentTotal : 0 }).where(eq(repositories.id, rid)).run();
      tx.insert(issueIndexes).values({ repoId: rid, maxIndex: c.issues + c.pulls }).onConflictDoNothing().run();
    }
    for (const id of [bigId, smallId]) tx.update(repositories).set({ numMilestones: 10 }).where(eq(repositories.id, id)).run();
    const owned = new Map<number, number>();
    for (const r of plan) owned.set(r.ownerId, (owned.get(r.ownerId) ?? 0) + 1);
    for (const [uid, n] of owned) tx.update(users).set({ numRepos: n }).where(eq(users.id, uid)).run();
  });

  // Notifications for the owner: the newest 20,000 issues of big, a quarter read.
  const recent = db.select({ id: issues.id, isPull: issues.isPull, updatedUnix: issues.updatedUnix }).from(issues).where(eq(issues.repoId, bigId)).orderBy(issues.id).limit(20_000).all();
  db.transaction((tx) =>
    insertAll(
      tx as DB,
      notifications,
      recent.map((i, k) => ({
        userId: owner.id,
        repoId: bigId,
        status: k % 4 === 0 ? NotificationStatus.Read : NotificationStatus.Unread,
        source: i.isPull ? NotificationSource.PullRequest : NotificationSource.Issue,
        issueId: i.id,
        updatedBy: individuals[k % individuals.length]!.id,
        createdUnix: i.updatedUnix,
        updatedUnix: i.updatedUnix,
      })),
    ),
  );
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("ANALYZE");
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  close();
  const bigC = counters.get(bigId)!;
  return {
    big: { name: `${owner.name}/big`, issues: bigC.issues, pulls: bigC.pulls },
    small: { name: `${owner.name}/small`, issues: 1000 },
    org: bigOrg.name,
    orgRepos,
    users: people.length + 1,
    repos: plan.length,
    issues: issueTotal,
    comments: commentTotal,
    notifications: recent.length,
    seconds: (performance.now() - t0) / 1000,
  };
}

if (import.meta.main) {
  const db = arg("db");
  const repoRoot = arg("repo-root");
  if (!db || !repoRoot) {
    console.error("usage: bun bench/seed-scale.ts --db PATH --repo-root DIR --owner NAME [--repos N] [--issues N] [--seed N]");
    process.exit(2);
  }
  const r = await seedScale({ db, repoRoot, owner: arg("owner") ?? "bench", repos: num("repos", 20_000), issues: num("issues", 1_000_000), seed: num("seed", 1) });
  console.log(JSON.stringify(r, null, 2));
}
