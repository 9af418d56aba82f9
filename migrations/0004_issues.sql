CREATE TABLE `attachment` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uuid` text NOT NULL,
	`repo_id` integer NOT NULL,
	`issue_id` integer DEFAULT 0 NOT NULL,
	`release_id` integer DEFAULT 0 NOT NULL,
	`comment_id` integer DEFAULT 0 NOT NULL,
	`uploader_id` integer DEFAULT 0 NOT NULL,
	`name` text NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attachment_uuid_uq` ON `attachment` (`uuid`);--> statement-breakpoint
CREATE INDEX `attachment_issue_idx` ON `attachment` (`issue_id`);--> statement-breakpoint
CREATE INDEX `attachment_comment_idx` ON `attachment` (`comment_id`);--> statement-breakpoint
CREATE INDEX `attachment_release_idx` ON `attachment` (`release_id`);--> statement-breakpoint
CREATE TABLE `comment` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`poster_id` integer NOT NULL,
	`original_author` text DEFAULT '' NOT NULL,
	`original_author_id` integer DEFAULT 0 NOT NULL,
	`issue_id` integer NOT NULL,
	`label_id` integer DEFAULT 0 NOT NULL,
	`old_milestone_id` integer DEFAULT 0 NOT NULL,
	`milestone_id` integer DEFAULT 0 NOT NULL,
	`assignee_id` integer DEFAULT 0 NOT NULL,
	`removed_assignee` integer DEFAULT false NOT NULL,
	`old_title` text DEFAULT '' NOT NULL,
	`new_title` text DEFAULT '' NOT NULL,
	`old_ref` text DEFAULT '' NOT NULL,
	`new_ref` text DEFAULT '' NOT NULL,
	`dependent_issue_id` integer DEFAULT 0 NOT NULL,
	`time_id` integer DEFAULT 0 NOT NULL,
	`ref_repo_id` integer DEFAULT 0 NOT NULL,
	`ref_issue_id` integer DEFAULT 0 NOT NULL,
	`ref_comment_id` integer DEFAULT 0 NOT NULL,
	`ref_action` integer DEFAULT 0 NOT NULL,
	`ref_is_pull` integer DEFAULT false NOT NULL,
	`commit_sha` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`content_version` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comment_issue_idx` ON `comment` (`issue_id`,`created_unix`);--> statement-breakpoint
CREATE INDEX `comment_updated_idx` ON `comment` (`updated_unix`);--> statement-breakpoint
CREATE TABLE `issue_assignees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`assignee_id` integer NOT NULL,
	`issue_id` integer NOT NULL,
	FOREIGN KEY (`assignee_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_assignees_uq` ON `issue_assignees` (`issue_id`,`assignee_id`);--> statement-breakpoint
CREATE INDEX `issue_assignees_user_idx` ON `issue_assignees` (`assignee_id`);--> statement-breakpoint
CREATE TABLE `issue_dependency` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`issue_id` integer NOT NULL,
	`dependency_id` integer NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`dependency_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_dependency_uq` ON `issue_dependency` (`issue_id`,`dependency_id`);--> statement-breakpoint
CREATE INDEX `issue_dependency_dep_idx` ON `issue_dependency` (`dependency_id`);--> statement-breakpoint
CREATE TABLE `issue_index` (
	`repo_id` integer PRIMARY KEY NOT NULL,
	`max_index` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `issue_label` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`issue_id` integer NOT NULL,
	`label_id` integer NOT NULL,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `label`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_label_uq` ON `issue_label` (`issue_id`,`label_id`);--> statement-breakpoint
CREATE INDEX `issue_label_label_idx` ON `issue_label` (`label_id`);--> statement-breakpoint
CREATE TABLE `issue_user` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` integer NOT NULL,
	`issue_id` integer NOT NULL,
	`is_read` integer DEFAULT false NOT NULL,
	`is_mentioned` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_user_uq` ON `issue_user` (`issue_id`,`uid`);--> statement-breakpoint
CREATE INDEX `issue_user_uid_idx` ON `issue_user` (`uid`);--> statement-breakpoint
CREATE TABLE `issue_watch` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`issue_id` integer NOT NULL,
	`is_watching` integer NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_watch_uq` ON `issue_watch` (`user_id`,`issue_id`);--> statement-breakpoint
CREATE TABLE `issue` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`index` integer NOT NULL,
	`poster_id` integer NOT NULL,
	`original_author` text DEFAULT '' NOT NULL,
	`original_author_id` integer DEFAULT 0 NOT NULL,
	`name` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`content_version` integer DEFAULT 0 NOT NULL,
	`milestone_id` integer DEFAULT 0 NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`is_closed` integer DEFAULT false NOT NULL,
	`is_pull` integer DEFAULT false NOT NULL,
	`num_comments` integer DEFAULT 0 NOT NULL,
	`ref` text DEFAULT '' NOT NULL,
	`pin_order` integer DEFAULT 0 NOT NULL,
	`deadline_unix` integer DEFAULT 0 NOT NULL,
	`is_locked` integer DEFAULT false NOT NULL,
	`time_estimate` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	`closed_unix` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issue_repo_index_uq` ON `issue` (`repo_id`,`index`);--> statement-breakpoint
CREATE INDEX `issue_poster_idx` ON `issue` (`poster_id`);--> statement-breakpoint
CREATE INDEX `issue_milestone_idx` ON `issue` (`milestone_id`);--> statement-breakpoint
CREATE INDEX `issue_updated_idx` ON `issue` (`updated_unix`);--> statement-breakpoint
CREATE TABLE `label` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer DEFAULT 0 NOT NULL,
	`org_id` integer DEFAULT 0 NOT NULL,
	`name` text NOT NULL,
	`exclusive` integer DEFAULT false NOT NULL,
	`exclusive_order` integer DEFAULT 0 NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`color` text NOT NULL,
	`num_issues` integer DEFAULT 0 NOT NULL,
	`num_closed_issues` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	`archived_unix` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `label_repo_idx` ON `label` (`repo_id`);--> statement-breakpoint
CREATE INDEX `label_org_idx` ON `label` (`org_id`);--> statement-breakpoint
CREATE TABLE `milestone` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`name` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`is_closed` integer DEFAULT false NOT NULL,
	`num_issues` integer DEFAULT 0 NOT NULL,
	`num_closed_issues` integer DEFAULT 0 NOT NULL,
	`deadline_unix` integer DEFAULT 0 NOT NULL,
	`closed_date_unix` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `milestone_repo_idx` ON `milestone` (`repo_id`);--> statement-breakpoint
CREATE TABLE `notification` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`repo_id` integer NOT NULL,
	`status` integer NOT NULL,
	`source` integer NOT NULL,
	`issue_id` integer DEFAULT 0 NOT NULL,
	`commit_id` text DEFAULT '' NOT NULL,
	`comment_id` integer DEFAULT 0 NOT NULL,
	`updated_by` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_user_status_idx` ON `notification` (`user_id`,`status`,`updated_unix`);--> statement-breakpoint
CREATE UNIQUE INDEX `notification_user_issue_uq` ON `notification` (`user_id`,`repo_id`,`source`,`issue_id`,`commit_id`);--> statement-breakpoint
CREATE TABLE `reaction` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`issue_id` integer NOT NULL,
	`comment_id` integer DEFAULT 0 NOT NULL,
	`user_id` integer NOT NULL,
	`original_author` text DEFAULT '' NOT NULL,
	`original_author_id` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reaction_uq` ON `reaction` (`type`,`issue_id`,`comment_id`,`user_id`,`original_author_id`);--> statement-breakpoint
CREATE INDEX `reaction_comment_idx` ON `reaction` (`comment_id`);--> statement-breakpoint
CREATE TABLE `stopwatch` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`issue_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stopwatch_uq` ON `stopwatch` (`user_id`,`issue_id`);--> statement-breakpoint
CREATE TABLE `tracked_time` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`issue_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_unix` integer NOT NULL,
	`time` integer NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`issue_id`) REFERENCES `issue`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tracked_time_issue_idx` ON `tracked_time` (`issue_id`);--> statement-breakpoint
CREATE INDEX `tracked_time_user_idx` ON `tracked_time` (`user_id`);