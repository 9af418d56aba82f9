import type { CommitStatusRow } from "../../db/schema/index.ts";
import { createChannel } from "../events/channel.ts";

/** What a subscriber learns about a stored commit status. */
export interface CommitStatusEvent {
  repoId: number;
  /** The full commit id the status was stored against. */
  sha: string;
  status: CommitStatusRow;
}

/** Stored commit statuses (automerge waits on them, webhooks announce them). */
export const commitStatusEvents = createChannel<CommitStatusEvent>("commit statuses");
