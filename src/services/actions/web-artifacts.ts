/**
 * A run's artifacts on its web page (Gitea's ArtifactsView, ArtifactsDownloadView and
 * ArtifactsDeleteView in routers/web/repo/actions/view.go): listed by name with their size, a v4
 * artifact downloaded as the zip it was uploaded as, a v3 artifact (a file per row, some stored
 * gzipped as the client sent them) as a zip made while it is sent, and a name sent to the
 * deletion sweep.
 */
import type { Env } from "../env.ts";
import type { ActionRunRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/actions-artifact.ts";
import { ArtifactStatus } from "../../models/actions-artifact.ts";
import { NotFound, TooLarge } from "../../lib/errors.ts";
import { fitsZip32, zipStream, type ZipInput } from "../../lib/zip-writer.ts";
import type { Writes } from "../access/repo-access.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { artifactStore, isV4Artifact } from "./artifacts.ts";

/** The most artifact names a run's page lists (a run rarely has more than a handful). */
export const RUN_PAGE_ARTIFACTS = 200;

export interface RunArtifactItem {
  name: string;
  /** Bytes: the zip of a v4 artifact, the files of a v3 one summed (as uploaded, before any gzip). */
  size: number;
  /** Past its retention: listed, no longer downloadable. */
  expired: boolean;
}

function ownRun(rc: RepoContext, run: ActionRunRow): void {
  if (run.repoId !== rc.repo.id) throw new NotFound();
}

/** Gitea's getActionsViewArtifacts: the run's uploaded or expired artifacts, one per name, by name; and how many names there are. */
export function runArtifactsForWeb(env: Env, rc: RepoContext, run: ActionRunRow): { items: RunArtifactItem[]; total: number } {
  ownRun(rc, run);
  const { rows, total } = model.uploadedArtifactsMeta(env.db, { repoId: rc.repo.id, runId: run.id }, RUN_PAGE_ARTIFACTS);
  return { items: rows.map((r) => ({ name: r.name, size: r.size, expired: r.status === ArtifactStatus.Expired })), total };
}

/** What a download sends: the stored zip of a v4 artifact, or the zip of a v3 artifact's files as it is written. */
export type ArtifactDownload =
  | { kind: "file"; fileName: string; path: string; size: number; modified: number }
  | { kind: "zip"; fileName: string; body: AsyncGenerator<Uint8Array>; modified: number };

/**
 * Gitea's ArtifactsDownloadView: the run's artifact of that name, when every row of it is uploaded
 * (an expired, deleted or unfinished one is not found). One v4 row is its stored zip; the files of
 * a v3 artifact become a zip, each under its path in the artifact, gzip undone.
 */
export function runArtifactDownload(env: Env, rc: RepoContext, run: ActionRunRow, name: string): ArtifactDownload {
  ownRun(rc, run);
  const rows = name ? model.artifactsOfRunNamed(env.db, run.id, name) : [];
  if (rows.length === 0 || rows.some((a) => a.status !== ArtifactStatus.UploadConfirmed || a.repoId !== rc.repo.id)) throw new NotFound("artifact not found");
  const store = artifactStore(env);
  const fileName = `${name}.zip`;
  // Folded, not spread: a v3 artifact may have more files than a call takes arguments.
  const modified = rows.reduce((m, a) => Math.max(m, a.updatedUnix || a.createdUnix), 0);
  if (rows.length === 1 && isV4Artifact(rows[0]!)) {
    const path = store.file(rows[0]!.storagePath);
    if (!path) throw new NotFound("artifact not found");
    return { kind: "file", fileName, path, size: Bun.file(path).size, modified };
  }
  const files = rows.map((a) => {
    const path = store.file(a.storagePath);
    if (!path) throw new NotFound("artifact not found");
    const gzip = a.contentEncoding === "gzip";
    // A gzipped file's size once undone is the one its upload announced (x-tfs-filelength).
    return { name: a.artifactPath, path, gzip, size: gzip ? a.fileSize : Bun.file(path).size, modified: a.updatedUnix || a.createdUnix };
  });
  if (!fitsZip32(files)) throw new TooLarge("This artifact is too large to download as one zip (4 GiB or 65,535 files at most).");
  async function* entries(): AsyncGenerator<ZipInput> {
    for (const f of files) {
      // Opened when its turn comes, so a long artifact holds one file open at a time.
      const stream = Bun.file(f.path).stream();
      yield { name: f.name, modified: f.modified, data: f.gzip ? stream.pipeThrough(new DecompressionStream("gzip")) : stream };
    }
  }
  return { kind: "zip", fileName, body: zipStream(entries()), modified };
}

/**
 * Gitea's ArtifactsDeleteView (SetArtifactNeedDelete): the run's uploaded artifacts of that name go
 * to the deletion sweep. False when the run has no such artifact still uploaded.
 */
export function deleteRunArtifacts(env: Env, rc: Writes<"actions">, run: ActionRunRow, name: string, now: number): boolean {
  ownRun(rc, run);
  return writeTx(env.db, (tx) => {
    const meta = name ? model.uploadedArtifactsMeta(tx, { repoId: rc.repo.id, runId: run.id, name }, 1).rows[0] : undefined;
    if (!meta || meta.status !== ArtifactStatus.UploadConfirmed) return false;
    model.markArtifactsForDeletion(tx, run.id, name, now);
    return true;
  });
}
