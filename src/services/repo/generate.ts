import type { Env } from "../env.ts";
import { gitNameOf } from "../user/git-identity.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { UserType, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as branchModel from "../../models/branch.ts";
import { getUserByName } from "../../models/user.ts";
import { deleteLabelsOf, insertLabel, listLabels } from "../../models/label.ts";
import { listRepoTopicNames, setRepoTopics } from "../../models/topic.ts";
import { deleteRepoWebhooks, insertWebhook, listWebhooks } from "../../models/webhook.ts";
import { insertProtectedBranch, listProtectedBranches } from "../../models/protected-branch.ts";
import { requireRepoStaysInReach } from "../access/permission.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import {
  expandVariables,
  hasRules,
  isExcluded,
  isExpanded,
  parseTemplateRules,
  sanitizeExpandedPath,
  templateVariables,
  TEMPLATE_FILE_LIMIT,
  TEMPLATE_RULES_PATH,
  type RepoFacts,
} from "../../lib/template-expansion.ts";
import { initBareRepo, removeRepo } from "../../git/repo-init.ts";
import { repoDirExists } from "../../git/fork.ts";
import { commitGeneratedTree, isRegularFile, listBranchTree, readBlobUpTo, type GeneratedEntry } from "../../git/generate.ts";
import { isValidBranchName } from "../../git/commit-files.ts";
import { readBranchHead } from "../../git/refs.ts";
import { repoNameProblem } from "./names.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { selfCommand } from "./hook-command.ts";
import { canCreateOrgRepo, checkCreationLimit, grantOrgAccess } from "./create.ts";
import { watchRepo } from "./watch.ts";
import { deleteRepoAvatar, repoAvatarFile, setRepoAvatar } from "./avatar.ts";
import { repoEvents } from "../events/repo-events.ts";
import { releaseEvent, withdrawEvent } from "../events/bus.ts";
import { copyDefaultHooksToRepo } from "../webhook/hooks.ts";

/** Gitea's GenerateRepoOption: what the new repository is, and which parts of the template it takes. */
export interface GenerateInput {
  doer: UserRow;
  template: RepoContext;
  owner: string;
  name: string;
  description?: string;
  isPrivate?: boolean;
  defaultBranch?: string;
  gitContent?: boolean;
  topics?: boolean;
  gitHooks?: boolean;
  webhooks?: boolean;
  avatar?: boolean;
  labels?: boolean;
  protectedBranch?: boolean;
}

/**
 * The owner of the new repository, in the order of Gitea's Generate handler: the doer by name, else
 * an existing account (404 otherwise) that is an organization the doer may create repositories in
 * (403 otherwise); site administrators may generate for anyone.
 */
function generateOwner(env: Env, doer: UserRow, name: string): UserRow {
  if (name === doer.name) return doer;
  const owner = getUserByName(env.db, name);
  if (!owner) throw new NotFound(`request owner \`${name}\` does not exist`);
  if (doer.isAdmin) return owner;
  if (owner.type !== UserType.Organization) throw new Forbidden("Only admin can generate repository for other user.");
  if (!canCreateOrgRepo(env, owner, doer)) throw new Forbidden("Given user is not allowed to create repository in organization.");
  return owner;
}

function factsOf(env: Env, owner: string, repo: Pick<RepoRow, "name" | "description">): RepoFacts {
  const root = env.settings.server.rootUrl;
  const path = `${encodeURIComponent(owner)}/${encodeURIComponent(repo.name)}`;
  // Gitea's Link() is the path below the site (AppSubURL/owner/name); hearth serves no SSH, so its SSH URL is empty.
  return { name: repo.name, owner, description: repo.description, link: `${new URL(root).pathname}${path}`, httpsUrl: `${root}${path}.git`, sshUrl: "" };
}

/**
 * The generated tree (Gitea's generateRepoCommit): the template's files, and when it has a regular
 * `.gitea/template`, that file dropped, `[exclude]`d files and directories dropped, and `[expand]`ed
 * regular files (up to 1 MiB) with their content and path expanded; symlinks and submodules are kept
 * as they are and never expanded.
 */
async function generatedEntries(templateDir: string, branch: string, vars: Map<string, string>): Promise<GeneratedEntry[] | undefined> {
  const entries = await listBranchTree(templateDir, branch);
  if (!entries) return undefined;
  const rulesEntry = entries.find((e) => e.path === TEMPLATE_RULES_PATH && isRegularFile(e.mode));
  if (!rulesEntry) return entries;
  const rulesText = await readBlobUpTo(templateDir, rulesEntry.oid, TEMPLATE_FILE_LIMIT);
  const rules = parseTemplateRules(rulesText?.toString("utf8") ?? "");
  const rest = entries.filter((e) => e !== rulesEntry);
  if (!hasRules(rules)) return rest;

  const out = new Map<string, GeneratedEntry>();
  const expanded: GeneratedEntry[] = [];
  // Variables are expanded over bytes: latin1 keeps every byte of the file, and values go in as their UTF-8 bytes.
  const byteVars = new Map([...vars].map(([k, v]) => [k, Buffer.from(v, "utf8").toString("latin1")]));
  for (const e of rest) {
    if (isExcluded(rules, e.path)) continue;
    if (isRegularFile(e.mode) && isExpanded(rules, e.path)) {
      const content = await readBlobUpTo(templateDir, e.oid, TEMPLATE_FILE_LIMIT);
      if (content) {
        const text = expandVariables(content.toString("latin1"), byteVars);
        const path = sanitizeExpandedPath(expandVariables(e.path, vars));
        expanded.push({ mode: e.mode, path, content: Buffer.from(text, "latin1") });
        continue;
      }
    }
    out.set(e.path, e);
  }
  // An expanded file replaces a regular file at its new path; one that would land on a symlink or
  // submodule (or on the tree's root) is skipped, as Gitea skips writing through a link.
  for (const e of expanded) {
    const there = out.get(e.path);
    if (e.path === "." || (there && !isRegularFile(there.mode))) continue;
    out.set(e.path, e);
  }
  return [...out.values()];
}

/** The database parts the options ask for, copied inside the new row's transaction. */
function copyTemplateRows(env: Env, tx: Tx, input: GenerateInput, template: RepoRow, target: RepoRow, now: number): void {
  if (input.topics) setRepoTopics(tx, target.id, listRepoTopicNames(tx, template.id, 0, 1_000).names);
  if (input.labels) {
    for (const l of listLabels(tx, { repoId: template.id }, "alphabetically", undefined).rows) {
      insertLabel(tx, { repoId: target.id, name: l.name, color: l.color, description: l.description, exclusive: l.exclusive, createdUnix: now, updatedUnix: now });
    }
  }
  if (input.webhooks) {
    for (const { id: _id, repoId: _repo, createdUnix: _c, updatedUnix: _u, ...hook } of listWebhooks(tx, { repoId: template.id }).rows) {
      insertWebhook(tx, { ...hook, repoId: target.id, createdUnix: now, updatedUnix: now });
    }
  }
  if (input.protectedBranch) {
    for (const { id: _id, repoId: _repo, createdUnix: _c, updatedUnix: _u, ...rule } of listProtectedBranches(tx, template.id)) {
      insertProtectedBranch(tx, { ...rule, repoId: target.id, createdUnix: now, updatedUnix: now });
    }
  }
}

/**
 * POST /repos/{template_owner}/{template_repo}/generate (Gitea's Generate and GenerateRepository):
 * a new repository from a template, with the parts the options ask for — the default branch's
 * content as one fresh commit with `.gitea/template` applied, topics, labels, webhooks, branch
 * protection rules, the avatar. The row and the git repository are made together or not at all.
 * Gitea's `git_hooks` copies custom server-side hooks; hearth runs only its own, so there is nothing to copy.
 */
export async function generateRepo(env: Env, input: GenerateInput): Promise<RepoRow> {
  const { doer, template: tc } = input;
  const template = tc.repo;
  if (!template.isTemplate) throw new Invalid("this is not a template repo");
  const wanted = input.gitContent || input.topics || input.gitHooks || input.webhooks || input.avatar || input.labels || input.protectedBranch;
  if (!wanted) throw new Invalid("must select at least one template item");
  const owner = generateOwner(env, doer, input.owner);
  const isPrivate = input.isPrivate ?? false;
  requireRepoStaysInReach(doer, { isPrivate }, owner);
  const problem = repoNameProblem(input.name);
  if (problem) throw new Invalid(problem);
  const defaultBranch = input.defaultBranch || template.defaultBranch || env.settings.repository.defaultBranch;
  if (!(await isValidBranchName(defaultBranch))) throw new Invalid(`invalid default branch name: ${defaultBranch}`);
  checkCreationLimit(env, owner, doer);

  const now = nowUnix();
  const created = writeTx(env.db, (tx) => {
    if (repos.getRepoByOwner(tx, owner.id, input.name)) throw new Conflict("The repository with the same name already exists.");
    repos.dropRedirect(tx, owner.id, input.name);
    const row = repos.insertRepo(tx, {
      ownerId: owner.id,
      ownerName: owner.name,
      name: input.name,
      lowerName: input.name.toLowerCase(),
      description: input.description ?? "",
      defaultBranch,
      objectFormat: template.objectFormat,
      isPrivate,
      isEmpty: true,
      templateId: template.id,
      createdUnix: now,
      updatedUnix: now,
    });
    if (owner.type === UserType.Organization) grantOrgAccess(env, tx, doer, owner, row);
    copyTemplateRows(env, tx, input, template, row, now);
    watchRepo(env, doer.id, row.id, tx);
    copyDefaultHooksToRepo(env, tx, row.id);
    const announced = repoEvents.hold(tx, env, { kind: "created", repo: row, owner, doer });
    return { row, announced };
  });
  const repo = created.row;
  const path = gitDirOf(env, owner, repo);
  // Labels and webhooks point at their repository without a foreign key, so they go by hand;
  // topics and branch protection rules go with the row.
  const dropRows = () =>
    writeTx(env.db, (tx) => {
      deleteLabelsOf(tx, { repoId: repo.id });
      deleteRepoWebhooks(tx, repo.id);
      repos.deleteRepoRow(tx, repo.id);
      withdrawEvent(tx, env, created.announced);
    });
  const cleanup = () => {
    removeRepo(path);
    const current = repos.getRepoById(env.db, repo.id);
    if (current) deleteRepoAvatar(env, current);
    dropRows();
  };
  if (repoDirExists(path)) {
    dropRows();
    throw new Conflict(`repository files already exist [uname: ${owner.name}, name: ${input.name}]`);
  }
  try {
    await initBareRepo(path, { defaultBranch, objectFormat: template.objectFormat === "sha256" ? "sha256" : "sha1", hookCommand: selfCommand() });
    let head: Awaited<ReturnType<typeof readBranchHead>>;
    if (input.gitContent && !template.isEmpty) {
      const vars = templateVariables(factsOf(env, owner.name, { name: input.name, description: input.description ?? "" }), factsOf(env, tc.owner.name, template), new Date());
      const entries = await generatedEntries(gitDirOf(env, tc.owner, template), template.defaultBranch, vars);
      if (entries) {
        const signature = { name: gitNameOf(doer), email: doer.email, unix: now };
        await commitGeneratedTree({
          templateDir: gitDirOf(env, tc.owner, template),
          target: path,
          branch: defaultBranch,
          entries,
          message: "Initial commit\n",
          author: signature,
          committer: signature,
        });
        head = await readBranchHead(path, defaultBranch);
      }
    }
    if (input.avatar && template.avatar) {
      const file = await repoAvatarFile(env, template.avatar);
      if (file) setRepoAvatar(env, repos.getRepoById(env.db, repo.id)!, Buffer.from(await Bun.file(file.path).arrayBuffer()).toString("base64"));
    }
    return writeTx(env.db, (tx) => {
      if (head) {
        branchModel.upsertBranch(
          tx,
          repo.id,
          { name: head.name, commitId: head.commitId, commitMessage: head.subject, commitUnix: head.commitUnix, pusherId: doer.id },
          now,
        );
      }
      releaseEvent(tx, env, created.announced);
      return repos.updateRepo(tx, repo.id, { isEmpty: !head })!;
    });
  } catch (err) {
    cleanup();
    throw err;
  }
}
