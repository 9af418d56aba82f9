CREATE TABLE `secret` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer DEFAULT 0 NOT NULL,
	`repo_id` integer DEFAULT 0 NOT NULL,
	`name` text NOT NULL,
	`data` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secret_owner_repo_name_uq` ON `secret` (`owner_id`,`repo_id`,`name`);