CREATE TABLE `email_address` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` integer NOT NULL,
	`email` text NOT NULL,
	`lower_email` text NOT NULL,
	`is_activated` integer DEFAULT true NOT NULL,
	`is_primary` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_address_lower_email_uq` ON `email_address` (`lower_email`);--> statement-breakpoint
CREATE INDEX `email_address_uid_idx` ON `email_address` (`uid`);--> statement-breakpoint
CREATE TABLE `user` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lower_name` text NOT NULL,
	`name` text NOT NULL,
	`full_name` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`keep_email_private` integer DEFAULT false NOT NULL,
	`passwd` text DEFAULT '' NOT NULL,
	`passwd_hash_algo` text DEFAULT '' NOT NULL,
	`must_change_password` integer DEFAULT false NOT NULL,
	`login_type` integer DEFAULT 0 NOT NULL,
	`login_source` integer DEFAULT 0 NOT NULL,
	`login_name` text DEFAULT '' NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`website` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`language` text DEFAULT '' NOT NULL,
	`theme` text DEFAULT '' NOT NULL,
	`diff_view_style` text DEFAULT '' NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	`last_login_unix` integer DEFAULT 0 NOT NULL,
	`max_repo_creation` integer DEFAULT -1 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`is_restricted` integer DEFAULT false NOT NULL,
	`allow_git_hook` integer DEFAULT false NOT NULL,
	`allow_import_local` integer DEFAULT false NOT NULL,
	`allow_create_organization` integer DEFAULT true NOT NULL,
	`prohibit_login` integer DEFAULT false NOT NULL,
	`visibility` integer DEFAULT 0 NOT NULL,
	`hide_activity` integer DEFAULT false NOT NULL,
	`avatar` text DEFAULT '' NOT NULL,
	`num_followers` integer DEFAULT 0 NOT NULL,
	`num_following` integer DEFAULT 0 NOT NULL,
	`num_stars` integer DEFAULT 0 NOT NULL,
	`num_repos` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_lower_name_uq` ON `user` (`lower_name`);--> statement-breakpoint
CREATE INDEX `user_email_idx` ON `user` (`email`);--> statement-breakpoint
CREATE INDEX `user_type_idx` ON `user` (`type`);--> statement-breakpoint
CREATE TABLE `access_token` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` integer NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_last_eight` text NOT NULL,
	`scope` text DEFAULT '' NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_token_hash_uq` ON `access_token` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `access_token_uid_name_uq` ON `access_token` (`uid`,`name`);--> statement-breakpoint
CREATE INDEX `access_token_uid_idx` ON `access_token` (`uid`);--> statement-breakpoint
CREATE TABLE `two_factor` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` integer NOT NULL,
	`secret` text NOT NULL,
	`scratch_hash` text DEFAULT '' NOT NULL,
	`last_used_passcode` text DEFAULT '' NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `two_factor_uid_unique` ON `two_factor` (`uid`);