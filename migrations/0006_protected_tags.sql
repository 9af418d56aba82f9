CREATE TABLE `protected_tag` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`name_pattern` text NOT NULL,
	`allowlist_user_ids` text DEFAULT '[]' NOT NULL,
	`allowlist_team_ids` text DEFAULT '[]' NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`repo_id`) REFERENCES `repository`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `protected_tag_repo_idx` ON `protected_tag` (`repo_id`);