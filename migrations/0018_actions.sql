CREATE TABLE `action_artifact` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`runner_id` integer DEFAULT 0 NOT NULL,
	`repo_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`commit_sha` text NOT NULL,
	`storage_path` text DEFAULT '' NOT NULL,
	`file_size` integer DEFAULT 0 NOT NULL,
	`file_compressed_size` integer DEFAULT 0 NOT NULL,
	`content_encoding` text DEFAULT '' NOT NULL,
	`artifact_path` text DEFAULT '' NOT NULL,
	`artifact_name` text NOT NULL,
	`status` integer NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	`expired_unix` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `action_run`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `action_artifact_run_name_idx` ON `action_artifact` (`run_id`,`artifact_name`);--> statement-breakpoint
CREATE INDEX `action_artifact_repo_idx` ON `action_artifact` (`repo_id`,`id`);--> statement-breakpoint
CREATE INDEX `action_artifact_expiry_idx` ON `action_artifact` (`status`,`expired_unix`);--> statement-breakpoint
CREATE TABLE `action_disabled_workflow` (
	`repo_id` integer NOT NULL,
	`workflow_id` text NOT NULL,
	PRIMARY KEY(`repo_id`, `workflow_id`)
);
--> statement-breakpoint
CREATE TABLE `action_run_job` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`repo_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`commit_sha` text NOT NULL,
	`is_fork_pull_request` integer DEFAULT false NOT NULL,
	`name` text NOT NULL,
	`attempt` integer DEFAULT 0 NOT NULL,
	`workflow_payload` text NOT NULL,
	`job_id` text NOT NULL,
	`needs_json` text DEFAULT '[]' NOT NULL,
	`runs_on_json` text DEFAULT '[]' NOT NULL,
	`task_id` integer DEFAULT 0 NOT NULL,
	`status` integer NOT NULL,
	`started_unix` integer DEFAULT 0 NOT NULL,
	`stopped_unix` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `action_run`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `action_run_job_run_idx` ON `action_run_job` (`run_id`,`id`);--> statement-breakpoint
CREATE INDEX `action_run_job_waiting_idx` ON `action_run_job` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `action_run_job_repo_idx` ON `action_run_job` (`repo_id`,`id`);--> statement-breakpoint
CREATE INDEX `action_run_job_owner_idx` ON `action_run_job` (`owner_id`,`id`);--> statement-breakpoint
CREATE TABLE `action_runner_token` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`owner_id` integer DEFAULT 0 NOT NULL,
	`repo_id` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_runner_token_uq` ON `action_runner_token` (`token`);--> statement-breakpoint
CREATE INDEX `action_runner_token_level_idx` ON `action_runner_token` (`owner_id`,`repo_id`,`id`);--> statement-breakpoint
CREATE TABLE `action_runner` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uuid` text NOT NULL,
	`name` text NOT NULL,
	`version` text DEFAULT '' NOT NULL,
	`owner_id` integer DEFAULT 0 NOT NULL,
	`repo_id` integer DEFAULT 0 NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`token_hash` text NOT NULL,
	`labels_json` text DEFAULT '[]' NOT NULL,
	`ephemeral` integer DEFAULT false NOT NULL,
	`last_online_unix` integer DEFAULT 0 NOT NULL,
	`last_active_unix` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_runner_uuid_uq` ON `action_runner` (`uuid`);--> statement-breakpoint
CREATE UNIQUE INDEX `action_runner_token_hash_uq` ON `action_runner` (`token_hash`);--> statement-breakpoint
CREATE INDEX `action_runner_level_idx` ON `action_runner` (`owner_id`,`repo_id`);--> statement-breakpoint
CREATE TABLE `action_run` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`repo_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`workflow_id` text NOT NULL,
	`workflow_dir` text DEFAULT '.gitea/workflows' NOT NULL,
	`index` integer NOT NULL,
	`trigger_user_id` integer NOT NULL,
	`schedule_id` integer DEFAULT 0 NOT NULL,
	`ref` text NOT NULL,
	`commit_sha` text NOT NULL,
	`is_fork_pull_request` integer DEFAULT false NOT NULL,
	`event` text NOT NULL,
	`event_payload` text NOT NULL,
	`trigger_event` text NOT NULL,
	`status` integer NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`concurrency_group` text DEFAULT '' NOT NULL,
	`concurrency_cancel` integer DEFAULT false NOT NULL,
	`started_unix` integer DEFAULT 0 NOT NULL,
	`stopped_unix` integer DEFAULT 0 NOT NULL,
	`previous_duration` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_run_repo_index_uq` ON `action_run` (`repo_id`,`index`);--> statement-breakpoint
CREATE INDEX `action_run_repo_workflow_idx` ON `action_run` (`repo_id`,`workflow_id`,`id`);--> statement-breakpoint
CREATE INDEX `action_run_owner_idx` ON `action_run` (`owner_id`,`id`);--> statement-breakpoint
CREATE INDEX `action_run_status_idx` ON `action_run` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `action_run_concurrency_idx` ON `action_run` (`repo_id`,`concurrency_group`);--> statement-breakpoint
CREATE TABLE `action_schedule_spec` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer NOT NULL,
	`schedule_id` integer NOT NULL,
	`spec` text NOT NULL,
	`next_unix` integer NOT NULL,
	`prev_unix` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`schedule_id`) REFERENCES `action_schedule`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `action_schedule_spec_next_idx` ON `action_schedule_spec` (`next_unix`);--> statement-breakpoint
CREATE INDEX `action_schedule_spec_schedule_idx` ON `action_schedule_spec` (`schedule_id`);--> statement-breakpoint
CREATE TABLE `action_schedule` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`repo_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`workflow_id` text NOT NULL,
	`workflow_dir` text DEFAULT '.gitea/workflows' NOT NULL,
	`trigger_user_id` integer NOT NULL,
	`ref` text NOT NULL,
	`commit_sha` text NOT NULL,
	`event_payload` text NOT NULL,
	`content` text NOT NULL,
	`created_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `action_schedule_repo_idx` ON `action_schedule` (`repo_id`);--> statement-breakpoint
CREATE TABLE `action_task_output` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` integer NOT NULL,
	`output_key` text NOT NULL,
	`output_value` text NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `action_task`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_task_output_task_key_uq` ON `action_task_output` (`task_id`,`output_key`);--> statement-breakpoint
CREATE TABLE `action_task_step` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` integer NOT NULL,
	`name` text NOT NULL,
	`index` integer NOT NULL,
	`repo_id` integer NOT NULL,
	`status` integer NOT NULL,
	`log_index` integer DEFAULT 0 NOT NULL,
	`log_length` integer DEFAULT 0 NOT NULL,
	`started_unix` integer DEFAULT 0 NOT NULL,
	`stopped_unix` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `action_task`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_task_step_task_index_uq` ON `action_task_step` (`task_id`,`index`);--> statement-breakpoint
CREATE TABLE `action_task` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`runner_id` integer NOT NULL,
	`status` integer NOT NULL,
	`started_unix` integer DEFAULT 0 NOT NULL,
	`stopped_unix` integer DEFAULT 0 NOT NULL,
	`repo_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`commit_sha` text NOT NULL,
	`is_fork_pull_request` integer DEFAULT false NOT NULL,
	`token_hash` text DEFAULT '' NOT NULL,
	`token_last_eight` text DEFAULT '' NOT NULL,
	`log_filename` text DEFAULT '' NOT NULL,
	`log_length` integer DEFAULT 0 NOT NULL,
	`log_size` integer DEFAULT 0 NOT NULL,
	`log_compressed` integer DEFAULT false NOT NULL,
	`log_expired` integer DEFAULT false NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `action_run_job`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `action_task_job_idx` ON `action_task` (`job_id`,`id`);--> statement-breakpoint
CREATE INDEX `action_task_runner_status_idx` ON `action_task` (`runner_id`,`status`);--> statement-breakpoint
CREATE INDEX `action_task_repo_idx` ON `action_task` (`repo_id`,`id`);--> statement-breakpoint
CREATE INDEX `action_task_token_idx` ON `action_task` (`token_hash`);