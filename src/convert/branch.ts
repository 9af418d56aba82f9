import type { Settings } from "../config/settings.ts";
import type { RepoRow, UserRow } from "../db/schema/index.ts";
import type { RepoPermission } from "../services/access/permission.ts";
import type { BranchView } from "../services/repo/branches.ts";
import type { BranchProtectionView } from "../services/protection/branch-view.ts";
import type { GitSignature } from "../git/reflist.ts";
import { repoLinks } from "./repo.ts";
import type { APIBranch, APIPayloadCommit, APIPayloadCommitVerification } from "../shapes/branch.ts";

export const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/**
 * A git time as Go's JSON renders a time.Time parsed from a signature: RFC 3339 in the
 * signature's own offset, `Z` for a zero offset.
 */
export function gitTimeRFC3339(sig: Pick<GitSignature, "unix" | "tz"> | undefined): string {
  if (!sig) return GO_ZERO_TIME;
  const m = /^([+-])(\d{2})(\d{2})$/.exec(sig.tz);
  const minutes = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const local = new Date((sig.unix + minutes * 60) * 1000).toISOString().slice(0, 19);
  if (minutes === 0) return `${local}Z`;
  return `${local}${m![1]}${m![2]}:${m![3]}`;
}

/** The same instant in UTC (`...Z`), as Gitea's CommitUser.date. */
export function gitTimeUTC(sig: Pick<GitSignature, "unix"> | undefined): string {
  if (!sig) return GO_ZERO_TIME;
  return `${new Date(sig.unix * 1000).toISOString().slice(0, 19)}Z`;
}

/** Gitea's verification of a commit hearth cannot verify: every commit reads as unsigned. */
export function unsignedVerification(): APIPayloadCommitVerification {
  return { verified: false, reason: "gpg.error.not_signed_commit", signature: "", signer: null, payload: "" };
}

/** Go's url.PathEscape: a path segment, `/` escaped. */
export function goPathEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(24|26|2B|3A|3D|40)/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Gitea's PathEscapeSegments: each `/`-separated segment escaped, the slashes kept. */
export function pathEscapeSegments(path: string): string {
  return path.split("/").map(goPathEscape).join("/");
}

export interface RepoRef {
  repo: Pick<RepoRow, "name">;
  owner: Pick<UserRow, "name">;
}

/** Gitea's ToPayloadCommit, for a branch head. */
export function toPayloadCommit(settings: Settings, rc: RepoRef, view: BranchView): APIPayloadCommit {
  const c = view.commit;
  const links = repoLinks(settings, rc.owner.name, rc.repo.name);
  return {
    id: c.id,
    message: c.message,
    url: `${links.html_url}/commit/${c.id}`,
    author: { name: c.author.name, email: c.author.email, username: view.authorUsername },
    committer: { name: c.committer.name, email: c.committer.email, username: view.committerUsername },
    verification: unsignedVerification(),
    timestamp: gitTimeRFC3339(c.author),
    added: null,
    removed: null,
    modified: null,
  };
}

/**
 * Gitea's ToBranch. An unprotected branch: pushing and merging both follow write access to the
 * code, and anonymous callers can do neither. A protected one shows its rule's requirements and
 * what the rule lets the doer do.
 */
export function toAPIBranch(
  settings: Settings,
  rc: RepoRef & { perm: RepoPermission },
  view: BranchView,
  signedIn: boolean,
  protection?: BranchProtectionView,
): APIBranch {
  const canWrite = signedIn && rc.perm.canWrite("code");
  return {
    name: view.name,
    commit: toPayloadCommit(settings, rc, view),
    protected: protection !== undefined,
    required_approvals: protection?.requiredApprovals ?? 0,
    enable_status_check: protection?.enableStatusCheck ?? false,
    status_check_contexts: protection?.statusCheckContexts ?? ([] as string[]),
    user_can_push: protection ? protection.userCanPush : canWrite,
    user_can_merge: protection ? protection.userCanMerge : canWrite,
    effective_branch_protection_name: protection?.effectiveRuleName ?? "",
  };
}
