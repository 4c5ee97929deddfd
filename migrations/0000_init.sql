CREATE TABLE `email_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`template_key` text NOT NULL,
	`subject` text NOT NULL,
	`email_template_type` integer NOT NULL,
	`notification_body` text NOT NULL,
	`culture` text NOT NULL,
	`description` text,
	`custom_attributes` text,
	`is_active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_on` text NOT NULL,
	`created_by` text NOT NULL,
	`modified_on` text NOT NULL,
	`modified_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_templates_key_uq` ON `email_templates` (`tenant_key`,`org_key`,`template_key`);--> statement-breakpoint
CREATE INDEX `email_templates_created_idx` ON `email_templates` (`tenant_key`,`org_key`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_culture_idx` ON `email_templates` (`tenant_key`,`org_key`,`culture`);--> statement-breakpoint
CREATE INDEX `email_templates_email_template_type_idx` ON `email_templates` (`tenant_key`,`org_key`,`email_template_type`);--> statement-breakpoint
CREATE INDEX `email_templates_modifiedOn_idx` ON `email_templates` (`tenant_key`,`org_key`,`modified_on`);--> statement-breakpoint
CREATE TABLE `ref_cultures` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_cultures_key_uq` ON `ref_cultures` (`key`);--> statement-breakpoint
CREATE TABLE `ref_currencies` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`symbol` text NOT NULL,
	`decimal_places` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_currencies_key_uq` ON `ref_currencies` (`key`);--> statement-breakpoint
CREATE TABLE `ref_custom_attributes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`entity` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`required` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_custom_attributes_key_uq` ON `ref_custom_attributes` (`tenant_key`,`org_key`,`key`);