CREATE TABLE `commit_status` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`index` integer NOT NULL,
	`repo_id` integer NOT NULL,
	`state` text NOT NULL,
	`sha` text NOT NULL,
	`target_url` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`context_hash` text NOT NULL,
	`context` text DEFAULT '' NOT NULL,
	`creator_id` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `commit_status_repo_sha_index_uq` ON `commit_status` (`repo_id`,`sha`,`index`);--> statement-breakpoint
CREATE INDEX `commit_status_repo_sha_idx` ON `commit_status` (`repo_id`,`sha`);--> statement-breakpoint
CREATE TABLE `protected_branch` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`branch_name` text NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`can_push` integer DEFAULT false NOT NULL,
	`enable_whitelist` integer DEFAULT false NOT NULL,
	`whitelist_user_ids` text DEFAULT '[]' NOT NULL,
	`whitelist_team_ids` text DEFAULT '[]' NOT NULL,
	`whitelist_deploy_keys` integer DEFAULT false NOT NULL,
	`can_force_push` integer DEFAULT false NOT NULL,
	`enable_force_push_allowlist` integer DEFAULT false NOT NULL,
	`force_push_allowlist_user_ids` text DEFAULT '[]' NOT NULL,
	`force_push_allowlist_team_ids` text DEFAULT '[]' NOT NULL,
	`force_push_allowlist_deploy_keys` integer DEFAULT false NOT NULL,
	`enable_merge_whitelist` integer DEFAULT false NOT NULL,
	`merge_whitelist_user_ids` text DEFAULT '[]' NOT NULL,
	`merge_whitelist_team_ids` text DEFAULT '[]' NOT NULL,
	`enable_status_check` integer DEFAULT false NOT NULL,
	`status_check_contexts` text DEFAULT '[]' NOT NULL,
	`enable_approvals_whitelist` integer DEFAULT false NOT NULL,
	`approvals_whitelist_user_ids` text DEFAULT '[]' NOT NULL,
	`approvals_whitelist_team_ids` text DEFAULT '[]' NOT NULL,
	`required_approvals` integer DEFAULT 0 NOT NULL,
	`block_on_rejected_reviews` integer DEFAULT false NOT NULL,
	`block_on_official_review_requests` integer DEFAULT false NOT NULL,
	`block_on_outdated_branch` integer DEFAULT false NOT NULL,
	`dismiss_stale_approvals` integer DEFAULT false NOT NULL,
	`ignore_stale_approvals` integer DEFAULT false NOT NULL,
	`require_signed_commits` integer DEFAULT false NOT NULL,
	`protected_file_patterns` text DEFAULT '' NOT NULL,
	`unprotected_file_patterns` text DEFAULT '' NOT NULL,
	`block_admin_merge_override` integer DEFAULT false NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `protected_branch_repo_rule_uq` ON `protected_branch` (`repo_id`,`branch_name`);--> statement-breakpoint
CREATE TABLE `pull_auto_merge` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pull_id` integer NOT NULL,
	`doer_id` integer NOT NULL,
	`merge_style` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`delete_branch_after_merge` integer DEFAULT false NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`pull_id`) REFERENCES `pull_request`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pull_auto_merge_pull_uq` ON `pull_auto_merge` (`pull_id`);--> statement-breakpoint
CREATE TABLE `pull_request` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`conflicted_files` text DEFAULT '[]' NOT NULL,
	`commits_ahead` integer DEFAULT 0 NOT NULL,
	`commits_behind` integer DEFAULT 0 NOT NULL,
	`changed_protected_files` text DEFAULT '[]' NOT NULL,
	`issue_id` integer NOT NULL,
	`index` integer NOT NULL,
	`head_repo_id` integer DEFAULT 0 NOT NULL,
	`base_repo_id` integer NOT NULL,
	`head_branch` text NOT NULL,
	`base_branch` text NOT NULL,
	`merge_base` text DEFAULT '' NOT NULL,
	`allow_maintainer_edit` integer DEFAULT false NOT NULL,
	`has_merged` integer DEFAULT false NOT NULL,
	`merged_commit_id` text DEFAULT '' NOT NULL,
	`merger_id` integer DEFAULT 0 NOT NULL,
	`merged_unix` integer DEFAULT 0 NOT NULL,
	`flow` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`base_repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pull_request_issue_uq` ON `pull_request` (`issue_id`);--> statement-breakpoint
CREATE INDEX `pull_request_base_idx` ON `pull_request` (`base_repo_id`,`base_branch`);--> statement-breakpoint
CREATE INDEX `pull_request_head_idx` ON `pull_request` (`head_repo_id`,`head_branch`);--> statement-breakpoint
CREATE TABLE `release` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`publisher_id` integer NOT NULL,
	`tag_name` text NOT NULL,
	`original_author` text DEFAULT '' NOT NULL,
	`original_author_id` integer DEFAULT 0 NOT NULL,
	`lower_tag_name` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`sha1` text DEFAULT '' NOT NULL,
	`num_commits` integer DEFAULT 0 NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`is_draft` integer DEFAULT false NOT NULL,
	`is_prerelease` integer DEFAULT false NOT NULL,
	`is_tag` integer DEFAULT false NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `release_repo_tag_uq` ON `release` (`repo_id`,`lower_tag_name`);--> statement-breakpoint
CREATE INDEX `release_repo_created_idx` ON `release` (`repo_id`,`created_unix`);--> statement-breakpoint
CREATE TABLE `review` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer NOT NULL,
	`reviewer_id` integer DEFAULT 0 NOT NULL,
	`reviewer_team_id` integer DEFAULT 0 NOT NULL,
	`original_author` text DEFAULT '' NOT NULL,
	`original_author_id` integer DEFAULT 0 NOT NULL,
	`issue_id` integer NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`official` integer DEFAULT false NOT NULL,
	`commit_id` text DEFAULT '' NOT NULL,
	`stale` integer DEFAULT false NOT NULL,
	`dismissed` integer DEFAULT false NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_issue_idx` ON `review` (`issue_id`);--> statement-breakpoint
CREATE INDEX `review_reviewer_idx` ON `review` (`reviewer_id`);--> statement-breakpoint
ALTER TABLE `comment` ADD `tree_path` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `comment` ADD `line` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `comment` ADD `patch` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `comment` ADD `review_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `comment` ADD `invalidated` integer DEFAULT false NOT NULL;