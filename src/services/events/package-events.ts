import type { PackageRow, PackageVersionRow, UserRow } from "../../db/schema/index.ts";
import type { Doer } from "../access/permission.ts";
import { createChannel } from "./channel.ts";

/**
 * A package version was published (its first file created it) or removed with its files (Gitea's
 * notifier calls PackageCreate and PackageDelete). The rows are as they were in the announcing
 * transaction: after a deletion they are gone from the database, and the payload is built from them.
 */
export interface PackageEvent {
  kind: "created" | "deleted";
  pkg: PackageRow;
  version: PackageVersionRow;
  owner: UserRow;
  doer: UserRow;
}

export const packageEvents = createChannel<PackageEvent>("package events");

/** The account behind a doer, as an event carries it (without a token's public-only flag). */
export function userOfDoer(doer: Doer): UserRow {
  const { publicOnly: _, ...user } = doer;
  return user;
}
