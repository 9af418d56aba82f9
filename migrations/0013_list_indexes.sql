DROP INDEX `issue_label_label_idx`;--> statement-breakpoint
CREATE INDEX `issue_label_label_idx` ON `issue_label` (`label_id`,`issue_id`);--> statement-breakpoint
DROP INDEX `issue_poster_idx`;--> statement-breakpoint
DROP INDEX `issue_milestone_idx`;--> statement-breakpoint
CREATE INDEX `issue_list_created_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_any_created_idx` ON `issue` (`repo_id`,`is_closed`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_all_created_idx` ON `issue` (`repo_id`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_updated_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`updated_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_comments_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`num_comments`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_priority_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`priority`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_list_deadline_idx` ON `issue` (`repo_id`,`is_pull`,`is_closed`,`deadline_unix`);--> statement-breakpoint
CREATE INDEX `issue_search_created_idx` ON `issue` (`is_pull`,`is_closed`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_poster_idx` ON `issue` (`poster_id`,`repo_id`,`is_pull`,`is_closed`,`created_unix`);--> statement-breakpoint
CREATE INDEX `issue_milestone_idx` ON `issue` (`milestone_id`,`is_pull`,`is_closed`,`created_unix`);--> statement-breakpoint
ALTER TABLE `repository` ADD `num_comments` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `repository` SET `num_comments` = (SELECT coalesce(sum(`num_comments`), 0) FROM `issue` WHERE `issue`.`repo_id` = `repository`.`id`);--> statement-breakpoint
CREATE INDEX `repository_owner_idx` ON `repository` (`owner_id`);--> statement-breakpoint
CREATE INDEX `repository_issue_counts_idx` ON `repository` (`has_issues`,`num_issues`,`num_closed_issues`);--> statement-breakpoint
CREATE INDEX `repository_pull_counts_idx` ON `repository` (`has_pull_requests`,`num_pulls`,`num_closed_pulls`);--> statement-breakpoint
ALTER TABLE `comment` ADD `repo_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `comment` SET `repo_id` = (SELECT `repo_id` FROM `issue` WHERE `issue`.`id` = `comment`.`issue_id`);--> statement-breakpoint
CREATE INDEX `comment_repo_list_idx` ON `comment` (`repo_id`,`type`,`created_unix`);--> statement-breakpoint
CREATE INDEX `notification_issue_idx` ON `notification` (`issue_id`);--> statement-breakpoint
CREATE VIRTUAL TABLE `issue_fts` USING fts5(`name`, `content`, content='issue', content_rowid='id', tokenize='trigram');--> statement-breakpoint
CREATE TRIGGER `issue_fts_insert` AFTER INSERT ON `issue` BEGIN
  INSERT INTO `issue_fts`(rowid, `name`, `content`) VALUES (new.`id`, new.`name`, new.`content`);
END;--> statement-breakpoint
CREATE TRIGGER `issue_fts_delete` AFTER DELETE ON `issue` BEGIN
  INSERT INTO `issue_fts`(`issue_fts`, rowid, `name`, `content`) VALUES ('delete', old.`id`, old.`name`, old.`content`);
END;--> statement-breakpoint
CREATE TRIGGER `issue_fts_update` AFTER UPDATE OF `name`, `content` ON `issue` BEGIN
  INSERT INTO `issue_fts`(`issue_fts`, rowid, `name`, `content`) VALUES ('delete', old.`id`, old.`name`, old.`content`);
  INSERT INTO `issue_fts`(rowid, `name`, `content`) VALUES (new.`id`, new.`name`, new.`content`);
END;--> statement-breakpoint
INSERT INTO `issue_fts`(`issue_fts`) VALUES ('rebuild');
