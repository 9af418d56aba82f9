CREATE TABLE `org_user` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` integer NOT NULL,
	`org_id` integer NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`org_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `org_user_uid_org_uq` ON `org_user` (`uid`,`org_id`);--> statement-breakpoint
CREATE INDEX `org_user_org_idx` ON `org_user` (`org_id`);--> statement-breakpoint
CREATE TABLE `team_repo` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`team_id` integer NOT NULL,
	`repo_id` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_repo_team_repo_uq` ON `team_repo` (`team_id`,`repo_id`);--> statement-breakpoint
CREATE INDEX `team_repo_repo_idx` ON `team_repo` (`repo_id`);--> statement-breakpoint
CREATE TABLE `team_unit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`team_id` integer NOT NULL,
	`type` integer NOT NULL,
	`access_mode` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_unit_team_type_uq` ON `team_unit` (`team_id`,`type`);--> statement-breakpoint
CREATE TABLE `team_user` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`team_id` integer NOT NULL,
	`uid` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_user_team_uid_uq` ON `team_user` (`team_id`,`uid`);--> statement-breakpoint
CREATE INDEX `team_user_uid_org_idx` ON `team_user` (`uid`,`org_id`);--> statement-breakpoint
CREATE TABLE `team` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` integer NOT NULL,
	`lower_name` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`authorize` integer DEFAULT 0 NOT NULL,
	`num_repos` integer DEFAULT 0 NOT NULL,
	`num_members` integer DEFAULT 0 NOT NULL,
	`includes_all_repositories` integer DEFAULT false NOT NULL,
	`can_create_org_repo` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_org_lower_name_uq` ON `team` (`org_id`,`lower_name`);--> statement-breakpoint
ALTER TABLE `user` ADD `repo_admin_change_team_access` integer DEFAULT false NOT NULL;