CREATE TABLE `auth_token` (
	`id` text PRIMARY KEY NOT NULL,
	`uid` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_unix` integer NOT NULL,
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `auth_token_uid_idx` ON `auth_token` (`uid`);--> statement-breakpoint
CREATE TABLE `web_session` (
	`id` text PRIMARY KEY NOT NULL,
	`uid` integer,
	`data` text DEFAULT '{}' NOT NULL,
	`created_unix` integer NOT NULL,
	`expires_unix` integer NOT NULL,
	FOREIGN KEY (`uid`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `web_session_uid_idx` ON `web_session` (`uid`);--> statement-breakpoint
CREATE INDEX `web_session_expires_idx` ON `web_session` (`expires_unix`);