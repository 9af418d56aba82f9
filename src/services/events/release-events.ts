import type { ReleaseRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import { createChannel } from "./channel.ts";

/** A release became visible (published), changed while published, or was deleted while published. */
export interface ReleaseEvent {
  kind: "published" | "updated" | "deleted";
  release: ReleaseRow;
  repo: RepoRow;
  owner: UserRow;
  doer: UserRow;
}

export const releaseEvents = createChannel<ReleaseEvent>("release events");
