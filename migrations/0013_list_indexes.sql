ALTER TABLE `comment` ADD `repo_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `comment` SET `repo_id` = (SELECT `repo_id` FROM `issue` WHERE `issue`.`id` = `comment`.`issue_id`);--> statement-breakpoint
CREATE INDEX `comment_repo_list_idx` ON `comment` (`repo_id`,`type`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_created_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_updated_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`updated_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_comments_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`num_comments`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_priority_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`priority`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_deadline_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`deadline_unix`);--> statement-breakpoint
CREATE INDEX `issue_search_created_idx` ON `issue` (`is_pull`,`is_closed`,`created_unix`);