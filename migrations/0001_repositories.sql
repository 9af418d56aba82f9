CREATE TABLE `branch` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`name` text NOT NULL,
	`commit_id` text NOT NULL,
	`commit_message` text DEFAULT '' NOT NULL,
	`commit_unix` integer DEFAULT 0 NOT NULL,
	`pusher_id` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `branch_repo_name_uq` ON `branch` (`repo_id`,`name`);--> statement-breakpoint
CREATE TABLE `collaboration` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`mode` integer DEFAULT 2 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collaboration_repo_user_uq` ON `collaboration` (`repo_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `collaboration_user_idx` ON `collaboration` (`user_id`);--> statement-breakpoint
CREATE TABLE `repo_redirect` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`lower_name` text NOT NULL,
	`redirect_repo_id` integer NOT NULL,
	FOREIGN KEY (`redirect_repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `repo_redirect_owner_name_uq` ON `repo_redirect` (`owner_id`,`lower_name`);--> statement-breakpoint
CREATE TABLE `repo_topic` (
	`repo_id` integer NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`repo_id`, `name`),
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `repo_topic_name_idx` ON `repo_topic` (`name`);--> statement-breakpoint
CREATE TABLE `repo_transfer` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`doer_id` integer NOT NULL,
	`recipient_id` integer NOT NULL,
	`team_ids` text DEFAULT '' NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`doer_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `repo_transfer_repo_id_unique` ON `repo_transfer` (`repo_id`);--> statement-breakpoint
CREATE TABLE `repository` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`owner_name` text NOT NULL,
	`lower_name` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`website` text DEFAULT '' NOT NULL,
	`original_url` text DEFAULT '' NOT NULL,
	`default_branch` text NOT NULL,
	`object_format_name` text DEFAULT 'sha1' NOT NULL,
	`is_private` integer DEFAULT false NOT NULL,
	`is_empty` integer DEFAULT true NOT NULL,
	`is_archived` integer DEFAULT false NOT NULL,
	`is_template` integer DEFAULT false NOT NULL,
	`is_fork` integer DEFAULT false NOT NULL,
	`fork_id` integer DEFAULT 0 NOT NULL,
	`template_id` integer DEFAULT 0 NOT NULL,
	`has_issues` integer DEFAULT true NOT NULL,
	`has_wiki` integer DEFAULT true NOT NULL,
	`has_pull_requests` integer DEFAULT true NOT NULL,
	`has_projects` integer DEFAULT true NOT NULL,
	`has_releases` integer DEFAULT true NOT NULL,
	`has_packages` integer DEFAULT true NOT NULL,
	`has_actions` integer DEFAULT true NOT NULL,
	`has_code` integer DEFAULT true NOT NULL,
	`projects_mode` text DEFAULT 'all' NOT NULL,
	`trust_model` text DEFAULT 'default' NOT NULL,
	`enable_time_tracker` integer DEFAULT true NOT NULL,
	`allow_only_contributors_to_track_time` integer DEFAULT true NOT NULL,
	`enable_issue_dependencies` integer DEFAULT true NOT NULL,
	`external_tracker_url` text DEFAULT '' NOT NULL,
	`external_tracker_format` text DEFAULT '' NOT NULL,
	`external_tracker_style` text DEFAULT '' NOT NULL,
	`external_tracker_regexp_pattern` text DEFAULT '' NOT NULL,
	`external_wiki_url` text DEFAULT '' NOT NULL,
	`allow_merge_commits` integer DEFAULT true NOT NULL,
	`allow_rebase` integer DEFAULT true NOT NULL,
	`allow_rebase_explicit` integer DEFAULT true NOT NULL,
	`allow_squash_merge` integer DEFAULT true NOT NULL,
	`allow_fast_forward_only_merge` integer DEFAULT true NOT NULL,
	`allow_manual_merge` integer DEFAULT false NOT NULL,
	`autodetect_manual_merge` integer DEFAULT false NOT NULL,
	`allow_rebase_update` integer DEFAULT true NOT NULL,
	`default_delete_branch_after_merge` integer DEFAULT false NOT NULL,
	`default_merge_style` text DEFAULT 'merge' NOT NULL,
	`default_allow_maintainer_edit` integer DEFAULT false NOT NULL,
	`ignore_whitespace_conflicts` integer DEFAULT false NOT NULL,
	`num_stars` integer DEFAULT 0 NOT NULL,
	`num_watches` integer DEFAULT 0 NOT NULL,
	`num_forks` integer DEFAULT 0 NOT NULL,
	`num_issues` integer DEFAULT 0 NOT NULL,
	`num_closed_issues` integer DEFAULT 0 NOT NULL,
	`num_pulls` integer DEFAULT 0 NOT NULL,
	`num_closed_pulls` integer DEFAULT 0 NOT NULL,
	`num_milestones` integer DEFAULT 0 NOT NULL,
	`num_closed_milestones` integer DEFAULT 0 NOT NULL,
	`num_releases` integer DEFAULT 0 NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	`archived_unix` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `repository_owner_lower_name_uq` ON `repository` (`owner_id`,`lower_name`);--> statement-breakpoint
CREATE INDEX `repository_lower_name_idx` ON `repository` (`lower_name`);--> statement-breakpoint
CREATE INDEX `repository_fork_id_idx` ON `repository` (`fork_id`);--> statement-breakpoint
CREATE INDEX `repository_is_private_idx` ON `repository` (`is_private`);--> statement-breakpoint
CREATE TABLE `star` (
	`uid` integer NOT NULL,
	`repo_id` integer NOT NULL,
	`created_unix` integer NOT NULL,
	PRIMARY KEY(`uid`, `repo_id`),
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `star_repo_idx` ON `star` (`repo_id`);--> statement-breakpoint
CREATE TABLE `watch` (
	`uid` integer NOT NULL,
	`repo_id` integer NOT NULL,
	`created_unix` integer NOT NULL,
	PRIMARY KEY(`uid`, `repo_id`),
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `watch_repo_idx` ON `watch` (`repo_id`);