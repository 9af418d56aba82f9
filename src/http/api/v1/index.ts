import type { AnyOperation } from "../../route.ts";
import { versionOperations } from "./misc/version.ts";
import { settingsOperations } from "./misc/settings.ts";
import { selfOperations } from "./user/self.ts";
import { emailOperations } from "./user/emails.ts";
import { userSettingsOperations } from "./user/settings.ts";
import { usersOperations } from "./users/users.ts";
import { tokenOperations } from "./users/tokens.ts";
import { adminUserOperations } from "./admin/users.ts";
import { adminEmailOperations } from "./admin/emails.ts";
import { repoOperations } from "./repos/repo.ts";
import { repoListOperations } from "./repos/list.ts";
import { branchOperations } from "./repos/branches.ts";
import { tagOperations } from "./repos/tags.ts";
import { gitRefOperations } from "./repos/git-refs.ts";
import { commitOperations } from "./repos/commits.ts";
import { gitObjectOperations } from "./repos/git-objects.ts";
import { compareOperations } from "./repos/compare.ts";
import { contentOperations } from "./repos/contents.ts";
import { rawOperations } from "./repos/raw.ts";
import { archiveOperations } from "./repos/archive.ts";
import { collaboratorOperations } from "./repos/collaborators.ts";
import { starOperations } from "./repos/stars.ts";
import { watchOperations } from "./repos/watchers.ts";
import { topicOperations } from "./repos/topics.ts";
import { forkOperations } from "./repos/forks.ts";
import { generateOperations } from "./repos/generate.ts";
import { migrateOperations } from "./repos/migrate.ts";
import { mirrorSyncOperations } from "./repos/mirror-sync.ts";
import { mergeUpstreamOperations } from "./repos/merge-upstream.ts";
import { transferOperations } from "./repos/transfer.ts";
import { templateOperations } from "./misc/templates.ts";
import { orgOperations } from "./orgs/org.ts";
import { orgMemberOperations } from "./orgs/members.ts";
import { teamOperations } from "./orgs/teams.ts";
import { userAvatarOperations } from "./user/avatar.ts";
import { followOperations } from "./user/follows.ts";
import { repoTeamOperations } from "./repos/teams.ts";
import { issueOperations } from "./issues/issues.ts";
import { issueLabelOperations } from "./issues/issue-labels.ts";
import { labelOperations } from "./issues/labels.ts";
import { milestoneOperations } from "./issues/milestones.ts";
import { commentOperations } from "./issues/comments.ts";
import { reactionOperations } from "./issues/reactions.ts";
import { attachmentOperations } from "./issues/attachments.ts";
import { notificationOperations } from "./issues/notifications.ts";
import { pinOperations } from "./issues/pins.ts";
import { dependencyOperations } from "./issues/dependencies.ts";
import { subscriptionOperations } from "./issues/subscriptions.ts";
import { timeOperations } from "./issues/times.ts";
import { timelineOperations } from "./issues/timeline.ts";
import { issueSearchOperations } from "./issues/search.ts";
import { issueTemplateOperations } from "./issues/templates.ts";
import { lockOperations } from "./issues/locks.ts";
import { orgLabelOperations } from "./orgs/labels.ts";
import { pullOperations } from "./repos/pulls.ts";
import { pullReviewOperations } from "./repos/pull-reviews.ts";
import { pullMergeOperations } from "./repos/pull-merge.ts";
import { statusOperations } from "./repos/statuses.ts";
import { branchProtectionOperations } from "./repos/branch-protections.ts";
import { releaseOperations } from "./repos/releases.ts";
import { releaseAttachmentOperations } from "./repos/release-attachments.ts";
import { tagProtectionOperations } from "./repos/tag-protections.ts";
import { peopleOperations } from "./repos/people.ts";
import { repoHookOperations } from "./repos/hooks.ts";
import { orgHookOperations } from "./orgs/hooks.ts";
import { userHookOperations } from "./user/hooks.ts";
import { adminHookOperations } from "./admin/hooks.ts";
import { orgSecretOperations } from "./orgs/secrets.ts";
import { repoSecretOperations } from "./repos/secrets.ts";
import { pushMirrorOperations } from "./repos/push-mirrors.ts";
import { userSecretOperations } from "./user/secrets.ts";
import { orgVariableOperations } from "./orgs/variables.ts";
import { repoVariableOperations } from "./repos/variables.ts";
import { userVariableOperations } from "./user/variables.ts";
import { repoActionsRunnerOperations } from "./repos/actions-runners.ts";
import { orgActionsRunnerOperations } from "./orgs/actions-runners.ts";
import { userActionsRunnerOperations } from "./user/actions-runners.ts";
import { adminActionsRunnerOperations } from "./admin/actions-runners.ts";
import { repoActionsRunOperations } from "./repos/actions-runs.ts";
import { repoActionsWorkflowOperations } from "./repos/actions-workflows.ts";
import { repoActionsArtifactOperations } from "./repos/actions-artifacts.ts";
import { repoAvatarOperations } from "./repos/avatar.ts";
import { markupOperations } from "./misc/markup.ts";
import { packageOperations } from "./packages/packages.ts";

/** Every /api/v1 operation hearth serves; the API document and the route table both come from here. */
export const apiOperations: readonly AnyOperation[] = [
  ...versionOperations,
  ...settingsOperations,
  ...selfOperations,
  ...emailOperations,
  ...userSettingsOperations,
  ...usersOperations,
  ...tokenOperations,
  ...adminUserOperations,
  ...adminEmailOperations,
  ...repoOperations,
  ...repoListOperations,
  ...branchOperations,
  ...tagOperations,
  ...gitRefOperations,
  ...commitOperations,
  ...gitObjectOperations,
  ...compareOperations,
  ...contentOperations,
  ...rawOperations,
  ...archiveOperations,
  ...collaboratorOperations,
  ...starOperations,
  ...watchOperations,
  ...topicOperations,
  ...forkOperations,
  ...generateOperations,
  ...migrateOperations,
  ...mirrorSyncOperations,
  ...mergeUpstreamOperations,
  ...transferOperations,
  ...templateOperations,
  ...orgOperations,
  ...orgMemberOperations,
  ...teamOperations,
  ...userAvatarOperations,
  ...followOperations,
  ...repoTeamOperations,
  ...issueOperations,
  ...issueLabelOperations,
  ...labelOperations,
  ...milestoneOperations,
  ...commentOperations,
  ...reactionOperations,
  ...attachmentOperations,
  ...notificationOperations,
  ...pinOperations,
  ...dependencyOperations,
  ...subscriptionOperations,
  ...timeOperations,
  ...timelineOperations,
  ...issueSearchOperations,
  ...issueTemplateOperations,
  ...lockOperations,
  ...orgLabelOperations,
  ...pullOperations,
  ...pullReviewOperations,
  ...pullMergeOperations,
  ...statusOperations,
  ...branchProtectionOperations,
  ...releaseOperations,
  ...releaseAttachmentOperations,
  ...tagProtectionOperations,
  ...peopleOperations,
  ...repoHookOperations,
  ...orgHookOperations,
  ...userHookOperations,
  ...adminHookOperations,
  ...orgSecretOperations,
  ...repoSecretOperations,
  ...pushMirrorOperations,
  ...userSecretOperations,
  ...orgVariableOperations,
  ...repoVariableOperations,
  ...userVariableOperations,
  ...repoActionsRunnerOperations,
  ...orgActionsRunnerOperations,
  ...userActionsRunnerOperations,
  ...adminActionsRunnerOperations,
  ...repoActionsRunOperations,
  ...repoActionsWorkflowOperations,
  ...repoActionsArtifactOperations,
  ...repoAvatarOperations,
  ...markupOperations,
  ...packageOperations,
];
