import type { Env } from "../../env.ts";
import { PackagePropertyRef, type PackageRow, type PackageVersionRow, type UserRow } from "../../../db/schema/index.ts";
import { writeTx, type Tx } from "../../../db/client.ts";
import * as pkgModel from "../../../models/package.ts";
import { BadRequest, NotFound } from "../../../lib/errors.ts";
import { looksLikeVersion, parseSemver } from "../../../lib/npm-version.ts";
import { NPM_TAG_PROPERTY, npmVersionViews } from "./documents.ts";

/** Gitea's errInvalidTagName: empty, or something that reads as a version. */
export function checkNpmTag(tag: string): void {
  if (tag === "" || looksLikeVersion(tag)) throw new BadRequest("The tag name is invalid");
}

/**
 * Gitea's setPackageTag in one transaction: the tag leaves the version that had it, then (unless
 * only deleting) points at `version`.
 */
function moveTag(tx: Tx, packageId: number, tag: string, version: PackageVersionRow | undefined): void {
  for (const holder of pkgModel.versionsWithProperty(tx, packageId, NPM_TAG_PROPERTY, tag)) {
    pkgModel.deletePropertyValue(tx, PackagePropertyRef.Version, holder.id, NPM_TAG_PROPERTY, tag);
  }
  if (version) pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Version, refId: version.id, name: NPM_TAG_PROPERTY, value: tag });
}

/** Points each of `tags` at `version` (checked first: nothing moves when one is invalid). */
export function setNpmTags(env: Env, pkg: PackageRow, version: PackageVersionRow, tags: readonly string[]): void {
  for (const tag of tags) checkNpmTag(tag);
  writeTx(env.db, (tx) => {
    for (const tag of tags) moveTag(tx, pkg.id, tag, version);
  });
}

/** Gitea's ListPackageTags: every dist-tag of the package and its version (`{}` for no package). */
export function listNpmTags(env: Env, owner: UserRow, name: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const v of npmVersionViews(env, owner, name)) for (const tag of v.tags) tags[tag] = v.version.version;
  return tags;
}

/** Gitea's AddPackageTag: `tag` to the version named by `versionText` (404 when there is none). */
export function addNpmTag(env: Env, owner: UserRow, name: string, tag: string, versionText: string): void {
  const pkg = pkgModel.getPackage(env.db, owner.id, "npm", name);
  const version = pkg && !pkg.isInternal ? pkgModel.getVersion(env.db, pkg.id, parseSemver(versionText)?.text ?? versionText) : undefined;
  if (!pkg || !version || version.isInternal) throw new NotFound("package does not exist");
  setNpmTags(env, pkg, version, [tag]);
}

/** Gitea's DeletePackageTag: the tag goes from whichever version has it; a package without versions is left alone. */
export function deleteNpmTag(env: Env, owner: UserRow, name: string, tag: string): void {
  const pkg = pkgModel.getPackage(env.db, owner.id, "npm", name);
  if (!pkg || pkg.isInternal || pkgModel.listVersions(env.db, pkg.id).total === 0) return;
  checkNpmTag(tag);
  writeTx(env.db, (tx) => moveTag(tx, pkg.id, tag, undefined));
}
