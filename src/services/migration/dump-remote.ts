import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../env.ts";
import { Invalid } from "../../lib/errors.ts";
import { checkTarget } from "./dump.ts";
import type { Unit } from "./format.ts";
import { downloaderFor, parseCloneAddress, type SourceRequest } from "./migrate.ts";
import { SERVICE_NAMES, type ServiceName } from "./download/source.ts";
import { writeDump, type WrittenDump } from "./download/write-dump.ts";

/**
 * Gitea's `dump-repo --clone_addr`: a repository of another forge (or any git address) downloaded
 * by the migration code into Gitea's dump layout, `{repo_dir}/{owner_name}/{repo_name}/`, for a
 * later `restore-repo`. The `[migrations]` host rules apply as for `POST /repos/migrate`.
 */
export interface RemoteDumpInput extends SourceRequest {
  repoDir: string;
  ownerName: string;
  repoName: string;
  units: Set<Unit>;
}

export async function dumpRemoteRepo(env: Env, input: RemoteDumpInput): Promise<WrittenDump & { path: string }> {
  const service = (input.service || "git").toLowerCase();
  if (!(SERVICE_NAMES as string[]).includes(service)) throw new Invalid(`Invalid git service type: ${input.service}`);
  checkTarget(input.repoDir);
  const address = await parseCloneAddress(env, input.cloneAddr, input.authUsername, input.authPassword);
  const downloader = await downloaderFor(env, service as ServiceName, address, input.authToken);
  const base = join(input.repoDir, input.ownerName, input.repoName);
  try {
    return { path: base, ...(await writeDump(env, downloader, input.units, base, address.clean)) };
  } catch (err) {
    // As Gitea's RepositoryDumper.Rollback: nothing half-written stays.
    rmSync(base, { recursive: true, force: true });
    throw err;
  }
}
