CREATE TABLE `follow` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`follow_id` integer NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`follow_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `follow_user_follow_uq` ON `follow` (`user_id`,`follow_id`);--> statement-breakpoint
CREATE INDEX `follow_follow_idx` ON `follow` (`follow_id`);