import * as v from "valibot";
import { operation, Reply, reply, type AnyOperation } from "../../../route.ts";
import {
  Package,
  PackageFile,
  PackageLinkParams,
  PackageListQuery,
  PackageNameParams,
  PackageOwnerParams,
  PackageVersionParams,
} from "../../../../shapes/package.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { toAPIPackage, toAPIPackageFile } from "../../../../convert/package.ts";
import {
  latestVersionOfPackage,
  linkPackage,
  listOwnerPackages,
  listVersionsOfPackage,
  packageVersionFiles,
  packageVersionView,
  removePackageVersion,
  unlinkPackage,
  type PackageView,
} from "../../../../services/packages/api.ts";
import type { Env } from "../../../../services/env.ts";
import type { UserRow } from "../../../../db/schema/index.ts";

/**
 * Gitea's package management API, `/packages/{owner}`: reqToken, the package token scope, the
 * owner of the path (UserAssignmentAPI), then reqPackageAccess(read) over the group and
 * reqPackageAccess(write) on deleting, linking and unlinking. The registries themselves
 * (`/api/packages/{owner}/{type}/...`) are another front door (http/packages/).
 */
export const packageRead = { scope: "package", signIn: true, package: "read" } as const;
export const packageWrite = { scope: "package", signIn: true, package: "write" } as const;

const json = (env: Env, viewer: UserRow | undefined) => (view: PackageView) => toAPIPackage(env.settings, view, viewer);

export const packageOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/packages/:owner",
    operationId: "listPackages",
    tag: "package",
    summary: "Gets all packages of an owner",
    access: packageRead,
    params: PackageOwnerParams,
    query: PackageListQuery,
    responses: { 200: v.array(Package) },
    handler: (ctx) => {
      const page = ctx.page();
      const { items, total } = listOwnerPackages(ctx.env, ctx.doer, ctx.packageOwner, { type: ctx.query.type, query: ctx.query.q }, page);
      return ctx.list(items.map(json(ctx.env, ctx.doer)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/packages/:owner/:type/:name",
    operationId: "listPackageVersions",
    tag: "package",
    summary: "Gets all versions of a package",
    access: packageRead,
    params: PackageNameParams,
    query: PageQuery,
    responses: { 200: v.array(Package) },
    handler: (ctx) => {
      const page = ctx.page();
      const { type, name } = ctx.params;
      const { items, total } = listVersionsOfPackage(ctx.env, ctx.doer, ctx.packageOwner, type, name, page);
      return ctx.list(items.map(json(ctx.env, ctx.doer)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/packages/:owner/:type/:name/-/latest",
    operationId: "getLatestPackageVersion",
    tag: "package",
    summary: "Gets the latest version of a package",
    access: packageRead,
    params: PackageNameParams,
    responses: { 200: Package },
    handler: (ctx) => {
      const { type, name } = ctx.params;
      return toAPIPackage(ctx.env.settings, latestVersionOfPackage(ctx.env, ctx.doer, ctx.packageOwner, type, name), ctx.doer);
    },
  }),
  operation({
    method: "POST",
    path: "/packages/:owner/:type/:name/-/link/:repo_name",
    operationId: "linkPackage",
    tag: "package",
    summary: "Link a package to a repository",
    access: packageWrite,
    params: PackageLinkParams,
    responses: { 201: null },
    handler: (ctx) => {
      const { type, name, repo_name } = ctx.params;
      linkPackage(ctx.env, { owner: ctx.packageOwner, mode: ctx.packageMode }, ctx.doer, type, name, repo_name);
      return new Reply(201);
    },
  }),
  operation({
    method: "POST",
    path: "/packages/:owner/:type/:name/-/unlink",
    operationId: "unlinkPackage",
    tag: "package",
    summary: "Unlink a package from a repository",
    access: packageWrite,
    params: PackageNameParams,
    // Gitea's document says 201; its handler answers 204, which is what clients get.
    responses: { 204: null },
    handler: (ctx) => {
      const { type, name } = ctx.params;
      unlinkPackage(ctx.env, { owner: ctx.packageOwner, mode: ctx.packageMode }, ctx.doer, type, name);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/packages/:owner/:type/:name/:version",
    operationId: "getPackage",
    tag: "package",
    summary: "Gets a package",
    access: packageRead,
    params: PackageVersionParams,
    responses: { 200: Package },
    handler: (ctx) => {
      const { type, name, version } = ctx.params;
      return toAPIPackage(ctx.env.settings, packageVersionView(ctx.env, ctx.doer, ctx.packageOwner, type, name, version), ctx.doer);
    },
  }),
  operation({
    method: "DELETE",
    path: "/packages/:owner/:type/:name/:version",
    operationId: "deletePackage",
    tag: "package",
    summary: "Delete a package",
    access: packageWrite,
    params: PackageVersionParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { type, name, version } = ctx.params;
      removePackageVersion(ctx.env, { owner: ctx.packageOwner, mode: ctx.packageMode }, ctx.doer, type, name, version);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/packages/:owner/:type/:name/:version/files",
    operationId: "listPackageFiles",
    tag: "package",
    summary: "Gets all files of a package",
    access: packageRead,
    params: PackageVersionParams,
    responses: { 200: v.array(PackageFile) },
    handler: (ctx) => {
      const { type, name, version } = ctx.params;
      return packageVersionFiles(ctx.env, ctx.packageOwner, type, name, version).map(toAPIPackageFile);
    },
  }),
];
