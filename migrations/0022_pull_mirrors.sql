CREATE TABLE `mirror` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`interval` integer NOT NULL,
	`enable_prune` integer DEFAULT true NOT NULL,
	`remote_address` text NOT NULL,
	`remote_credentials` text DEFAULT '' NOT NULL,
	`updated_unix` integer DEFAULT 0 NOT NULL,
	`next_update_unix` integer DEFAULT 0 NOT NULL,
	`last_error` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mirror_repo_uq` ON `mirror` (`repo_id`);--> statement-breakpoint
ALTER TABLE `repository` ADD `is_mirror` integer DEFAULT false NOT NULL;