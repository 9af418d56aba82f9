CREATE TABLE `hook_task_attempt` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` integer NOT NULL,
	`request` text NOT NULL,
	`response` text NOT NULL,
	`is_succeed` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`started_ms` integer NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `hook_task`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hook_task_attempt_task_idx` ON `hook_task_attempt` (`task_id`);--> statement-breakpoint
CREATE TABLE `hook_task` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hook_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`payload_content` text NOT NULL,
	`payload_version` integer DEFAULT 2 NOT NULL,
	`event_type` text NOT NULL,
	`is_delivered` integer DEFAULT false NOT NULL,
	`delivered` integer DEFAULT 0 NOT NULL,
	`is_succeed` integer DEFAULT false NOT NULL,
	`request_content` text DEFAULT '' NOT NULL,
	`response_content` text DEFAULT '' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`hook_id`) REFERENCES `webhook`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hook_task_uuid_uq` ON `hook_task` (`uuid`);--> statement-breakpoint
CREATE INDEX `hook_task_hook_idx` ON `hook_task` (`hook_id`,`id`);--> statement-breakpoint
CREATE TABLE `queue_item` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`queue` text NOT NULL,
	`payload` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`run_after_ms` integer DEFAULT 0 NOT NULL,
	`leased_until_ms` integer DEFAULT 0 NOT NULL,
	`created_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `queue_item_ready_idx` ON `queue_item` (`queue`,`run_after_ms`);--> statement-breakpoint
CREATE TABLE `webhook` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`repo_id` integer DEFAULT 0 NOT NULL,
	`owner_id` integer DEFAULT 0 NOT NULL,
	`is_system_webhook` integer DEFAULT false NOT NULL,
	`url` text NOT NULL,
	`http_method` text DEFAULT 'POST' NOT NULL,
	`content_type` integer DEFAULT 1 NOT NULL,
	`secret` text DEFAULT '' NOT NULL,
	`events` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`type` text NOT NULL,
	`meta` text DEFAULT '' NOT NULL,
	`last_status` integer DEFAULT 0 NOT NULL,
	`header_authorization_encrypted` text DEFAULT '' NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_repo_idx` ON `webhook` (`repo_id`);--> statement-breakpoint
CREATE INDEX `webhook_owner_idx` ON `webhook` (`owner_id`);--> statement-breakpoint
CREATE INDEX `webhook_active_idx` ON `webhook` (`is_active`);