import * as v from "valibot";
import { named } from "./registry.ts";
import { dateTime, opt } from "./common.ts";
import { User } from "./user.ts";

/** Schemas of the repository's social side: collaborators, stars, watches, topics, forks, transfers, templates. */

export const CollaboratorParams = v.object({ owner: v.string(), repo: v.string(), collaborator: v.string() });
export const TopicParams = v.object({ owner: v.string(), repo: v.string(), topic: v.string() });
export const NameParams = v.object({ name: v.string() });

// Gitea binds `permission` without validation: an unknown value is refused by the service.
export const AddCollaboratorOption = named("AddCollaboratorOption", v.object({ permission: opt(v.string()) }));

export const RepoCollaboratorPermission = named(
  "RepoCollaboratorPermission",
  v.object({ permission: v.string(), role_name: v.string(), user: User }),
);

export const WatchInfo = named(
  "WatchInfo",
  v.object({
    subscribed: v.boolean(),
    ignored: v.boolean(),
    reason: v.nullable(v.string()),
    created_at: dateTime,
    url: v.string(),
    repository_url: v.string(),
  }),
);

export const TopicName = named("TopicName", v.object({ topics: v.array(v.string()) }));
export const RepoTopicOptions = named("RepoTopicOptions", v.object({ topics: opt(v.array(v.string())) }));

export const TopicResponse = named(
  "TopicResponse",
  v.object({ id: v.number(), topic_name: v.string(), repo_count: v.number(), created: dateTime, updated: dateTime }),
);
/** What GET /topics/search really answers (Gitea's swagger says a bare array; the body is wrapped). */
export const TopicSearchResults = v.object({ topics: v.array(TopicResponse) });

/** Gitea's 422 for topics: `invalidTopics` is a list (PUT all), a string (one topic) or null/absent. */
export const InvalidTopicsError = v.object({
  invalidTopics: v.optional(v.nullable(v.union([v.array(v.string()), v.string()]))),
  message: v.string(),
});

export const CreateForkOption = named(
  "CreateForkOption",
  v.object({ name: opt(v.string()), organization: opt(v.string()) }),
);

export const TransferRepoOption = named(
  "TransferRepoOption",
  v.object({ new_owner: opt(v.string()), team_ids: opt(v.array(v.pipe(v.number(), v.integer()))) }),
);

export const GitignoreTemplateInfo = named("GitignoreTemplateInfo", v.object({ name: v.string(), source: v.string() }));

export const LicensesTemplateListEntry = named(
  "LicensesTemplateListEntry",
  v.object({ key: v.string(), name: v.string(), url: v.string() }),
);

export const LicenseTemplateInfo = named(
  "LicenseTemplateInfo",
  v.object({ key: v.string(), name: v.string(), url: v.string(), body: v.string(), implementation: v.string() }),
);

export const LabelTemplate = named(
  "LabelTemplate",
  v.object({ name: v.string(), color: v.string(), description: v.string(), exclusive: v.boolean() }),
);
