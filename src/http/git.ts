import type { Env } from "../services/env.ts";
import type { FailureLimiter } from "../auth/ratelimit.ts";
import { gitDirOf, type RepoContext } from "../services/repo/lookup.ts";
import { bitmapSettled } from "../services/repo/housekeeping.ts";
import { advertiseRefs, isGitService, serviceRpc, type GitService } from "../git/transport.ts";
import type { Access } from "./route.ts";
import { newCall, runDeclared } from "./door.ts";
import { gitDoor, gitText } from "./doors/git.ts";

const NO_CACHE = {
  Expires: "Fri, 01 Jan 1980 00:00:00 GMT",
  Pragma: "no-cache",
  "Cache-Control": "no-cache, max-age=0, must-revalidate",
};

/** A clone or fetch: the code readable (a push also advertises its refs first, under `push`). */
const pull = { scope: "repository", signIn: false, repo: { read: "code" } } as const satisfies Access;
/** A push: the code writable (a reader is told so), in a repository that is not archived. */
const push = { scope: "repository", signIn: false, repo: { read: "code", write: "code", notMirror: "git", notArchived: true } } as const satisfies Access;

export interface GitRequest {
  owner: string;
  /** The repository segment as sent: `name` or `name.git`. */
  repo: string;
  /** `info/refs`, `git-upload-pack` or `git-receive-pack`. */
  action: "info/refs" | GitService;
}

/**
 * Smart HTTP for git: the git door (its credentials, plain-text errors and redirects) with the
 * access declared like any operation's, then git streaming the pack both ways.
 */
export async function handleGit(
  env: Env,
  limiter: FailureLimiter,
  request: Request,
  ip: string,
  target: GitRequest,
): Promise<Response> {
  const url = new URL(request.url);
  if (env.settings.repository.disableHttpGit) {
    return gitText(403, "Interacting with repositories by HTTP protocol is not allowed\n");
  }
  let service: GitService;
  if (target.action === "info/refs") {
    const s = url.searchParams.get("service");
    if (!isGitService(s)) return gitText(400, "Bad Request\n");
    service = s;
  } else {
    service = target.action;
    const expected = `application/x-${service}-request`;
    if ((request.headers.get("content-type") ?? "").split(";")[0]!.trim() !== expected) {
      return gitText(400, "Bad Request\n");
    }
  }
  const write = service === "git-receive-pack";
  const door = gitDoor({ env, limiter }, { ...target, write });
  const decode = () => ({ params: { owner: target.owner, repo: target.repo.replace(/\.git$/i, "") } });

  const serve = async ({ repo, owner }: RepoContext, pusherId?: number, actionsTaskId?: number) => {
    // The hooks of a push must know who pushes: the declaration guarantees a doer for it.
    const hookEnv =
      pusherId === undefined
        ? {}
        : {
            HEARTH_REPO_ID: String(repo.id),
            HEARTH_PUSHER_ID: String(pusherId),
            // A push with a task's token is the Actions bot's, for that task (Gitea's GITEA_ACTIONS_TASK_ID).
            ...(actionsTaskId ? { HEARTH_ACTIONS_TASK_ID: String(actionsTaskId) } : {}),
            HEARTH_INTERNAL_URL: env.settings.server.localRootUrl,
            HEARTH_INTERNAL_TOKEN: env.settings.security.internalToken,
            ...(env.settings.server.protocol === "http+unix" ? { HEARTH_INTERNAL_SOCKET: env.settings.server.httpAddr } : {}),
          };
    const opts = { repoPath: gitDirOf(env, owner, repo), service, gitProtocol: request.headers.get("git-protocol"), env: hookEnv };
    if (target.action === "info/refs") {
      return new Response(advertiseRefs(opts), {
        headers: { "Content-Type": `application/x-${service}-advertisement`, ...NO_CACHE },
      });
    }
    // A clone right after a large push waits for the bitmap hearth is writing for it: packing
    // without one walks every object first anyway, and holds ~100 MiB more (bench/README.md).
    if (!write) await bitmapSettled(env, opts.repoPath);
    return new Response(serviceRpc(opts, request.body, request.headers.get("content-encoding")), {
      headers: { "Content-Type": `application/x-${service}-result`, ...NO_CACHE },
    });
  };

  if (write) {
    return runDeclared(door, newCall(request, ip, push), { access: push, level: "write", decode }, async (granted) =>
      serve(granted.repo, granted.doer.id, granted.doer.actionsTask?.taskId),
    );
  }
  return runDeclared(door, newCall(request, ip, pull), { access: pull, level: "read", decode }, async (granted) => serve(granted.repo));
}
