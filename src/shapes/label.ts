import * as v from "valibot";
import { named } from "./registry.ts";
import { dateTime, opt, PageQuery, requiredString } from "./common.ts";

/** The Label and Milestone JSON live with the Issue they are part of; re-exported for the label routes. */
export { Label, Milestone } from "./issue.ts";

export const CreateLabelOption = named(
  "CreateLabelOption",
  v.object({
    name: requiredString(),
    color: requiredString(),
    exclusive: opt(v.boolean()),
    description: opt(v.string()),
    is_archived: opt(v.boolean()),
  }),
);

export const EditLabelOption = named(
  "EditLabelOption",
  v.object({
    name: opt(v.string()),
    color: opt(v.string()),
    exclusive: opt(v.boolean()),
    description: opt(v.string()),
    is_archived: opt(v.boolean()),
  }),
);

/** Label ids (numbers) or label names (strings), not both; each element is checked by the route as Gitea does. */
export const IssueLabelsOption = named("IssueLabelsOption", v.object({ labels: opt(v.array(v.unknown())) }));

export const CreateMilestoneOption = named(
  "CreateMilestoneOption",
  v.object({
    title: opt(v.string()),
    description: opt(v.string()),
    due_on: opt(dateTime),
    // "closed" creates it closed; Gitea checks nothing else.
    state: opt(v.string()),
  }),
);

export const EditMilestoneOption = named(
  "EditMilestoneOption",
  v.object({
    title: opt(v.string()),
    description: opt(v.string()),
    due_on: opt(dateTime),
    state: opt(v.string()),
  }),
);

export const LabelParams = v.object({ owner: v.string(), repo: v.string(), id: v.string() });
export const OrgLabelParams = v.object({ org: v.string(), id: v.string() });
export const IssueLabelParams = v.object({ owner: v.string(), repo: v.string(), index: v.string(), id: v.string() });
export const MilestoneParams = v.object({ owner: v.string(), repo: v.string(), id: v.string() });

export const LabelListQuery = v.object({ ...PageQuery.entries, sort: v.optional(v.string()) });

export const MilestoneListQuery = v.object({
  ...PageQuery.entries,
  state: v.optional(v.string()),
  name: v.optional(v.string()),
});
