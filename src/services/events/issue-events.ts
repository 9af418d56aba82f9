import type { IssueEvent } from "../issue/hooks.ts";
import { createChannel } from "./channel.ts";

/** Every change of an issue or of a pull request's issue, as issueChanged reports it. */
export const issueEvents = createChannel<IssueEvent>("issue events");
