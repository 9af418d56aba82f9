CREATE TABLE `package_blob_upload` (
	`id` text PRIMARY KEY NOT NULL,
	`bytes_received` integer DEFAULT 0 NOT NULL,
	`created_unix` integer NOT NULL,
	`updated_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `package_blob` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`size` integer NOT NULL,
	`hash_md5` text NOT NULL,
	`hash_sha1` text NOT NULL,
	`hash_sha256` text NOT NULL,
	`hash_sha512` text NOT NULL,
	`created_unix` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_blob_sha256_uq` ON `package_blob` (`hash_sha256`);--> statement-breakpoint
CREATE TABLE `package_file` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`version_id` integer NOT NULL,
	`blob_id` integer NOT NULL,
	`name` text NOT NULL,
	`lower_name` text NOT NULL,
	`composite_key` text DEFAULT '' NOT NULL,
	`is_lead` integer DEFAULT false NOT NULL,
	`created_unix` integer NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `package_version`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blob_id`) REFERENCES `package_blob`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_file_version_name_key_uq` ON `package_file` (`version_id`,`lower_name`,`composite_key`);--> statement-breakpoint
CREATE INDEX `package_file_blob_idx` ON `package_file` (`blob_id`);--> statement-breakpoint
CREATE TABLE `package_property` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ref_type` integer NOT NULL,
	`ref_id` integer NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `package_property_ref_idx` ON `package_property` (`ref_type`,`ref_id`,`name`);--> statement-breakpoint
CREATE INDEX `package_property_name_value_idx` ON `package_property` (`name`,`value`);--> statement-breakpoint
CREATE TABLE `package_version` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`creator_id` integer DEFAULT 0 NOT NULL,
	`version` text NOT NULL,
	`lower_version` text NOT NULL,
	`created_unix` integer NOT NULL,
	`is_internal` integer DEFAULT false NOT NULL,
	`metadata_json` text DEFAULT '' NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_version_pkg_version_uq` ON `package_version` (`package_id`,`lower_version`);--> statement-breakpoint
CREATE INDEX `package_version_pkg_created_idx` ON `package_version` (`package_id`,`created_unix`);--> statement-breakpoint
CREATE TABLE `package` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`repo_id` integer DEFAULT 0 NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`lower_name` text NOT NULL,
	`semver_compatible` integer DEFAULT false NOT NULL,
	`is_internal` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_owner_type_name_uq` ON `package` (`owner_id`,`type`,`lower_name`);--> statement-breakpoint
CREATE INDEX `package_repo_idx` ON `package` (`repo_id`);