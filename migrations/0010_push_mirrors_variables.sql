CREATE TABLE `push_mirror` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`remote_name` text NOT NULL,
	`remote_address` text NOT NULL,
	`remote_credentials` text DEFAULT '' NOT NULL,
	`sync_on_commit` integer DEFAULT true NOT NULL,
	`interval` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`last_update` integer DEFAULT 0 NOT NULL,
	`last_error` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_mirror_repo_remote_uq` ON `push_mirror` (`repo_id`,`remote_name`);--> statement-breakpoint
CREATE TABLE `action_variable` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer DEFAULT 0 NOT NULL,
	`repo_id` integer DEFAULT 0 NOT NULL,
	`name` text NOT NULL,
	`data` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_variable_owner_repo_name_uq` ON `action_variable` (`owner_id`,`repo_id`,`name`);