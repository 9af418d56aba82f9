import { Forbidden, HearthError } from "../../lib/errors.ts";

/**
 * The refusals of a repository declaration (repo-access.ts), typed so that every front door can
 * word them its own way: the API answers status and message as they are, git turns a refused read
 * into "Repository not found" and a refused write into "User permission denied for writing.".
 */

/** A unit the declaration reads is not readable (Gitea's reqRepoReader). */
export class ReadRefused extends Forbidden {
  constructor() {
    super("user should have specific read permission or be a repo admin or a site admin");
  }
}

/** A unit the declaration writes is not writable (Gitea's reqRepoWriter). */
export class WriteRefused extends Forbidden {
  constructor() {
    super("user should have a permission to write to a repo");
  }
}

/** The repository is archived and the declaration changes it (Gitea's mustNotBeArchived: 423). */
export class RepoArchived extends HearthError {
  constructor(message: string) {
    super(423, message);
  }
}

/**
 * The repository is a pull mirror and the declaration changes its code (Gitea's `IsMirror` checks:
 * 403, "Git Repository is a mirror." on the API, "mirror repository is read-only" to git).
 */
export class RepoIsMirror extends Forbidden {}
