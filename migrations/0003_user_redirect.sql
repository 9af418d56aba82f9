CREATE TABLE `user_redirect` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lower_name` text NOT NULL,
	`redirect_user_id` integer NOT NULL,
	FOREIGN KEY (`redirect_user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_redirect_lower_name_uq` ON `user_redirect` (`lower_name`);