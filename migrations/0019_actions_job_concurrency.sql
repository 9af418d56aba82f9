ALTER TABLE `action_run_job` ADD `raw_concurrency` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `action_run_job` ADD `is_concurrency_evaluated` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `action_run_job` ADD `concurrency_group` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `action_run_job` ADD `concurrency_cancel` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `action_run_job_concurrency_idx` ON `action_run_job` (`repo_id`,`concurrency_group`);