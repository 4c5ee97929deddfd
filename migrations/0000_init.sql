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
CREATE TABLE `ref_brand_models` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`description` text NOT NULL,
	`brand` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_brand_models_key_uq` ON `ref_brand_models` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_brands` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`description` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_brands_key_uq` ON `ref_brands` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_companies` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`base_currency` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_companies_key_uq` ON `ref_companies` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
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
CREATE UNIQUE INDEX `ref_custom_attributes_key_uq` ON `ref_custom_attributes` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_employees` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`company` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_employees_key_uq` ON `ref_employees` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_equipment_items` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`description` text NOT NULL,
	`company` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_equipment_items_key_uq` ON `ref_equipment_items` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_families` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`description` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_families_key_uq` ON `ref_families` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_kpi_definitions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`value_type` text NOT NULL,
	`value_fraction_digits` integer NOT NULL,
	`aggregation` text NOT NULL,
	`higher_is_better` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_kpi_definitions_key_uq` ON `ref_kpi_definitions` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_location_functions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`description` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_location_functions_key_uq` ON `ref_location_functions` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_locations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`description` text NOT NULL,
	`company` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_locations_key_uq` ON `ref_locations` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_tools` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`description` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_tools_key_uq` ON `ref_tools` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `ref_worker_configurations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` text NOT NULL,
	`companies` text DEFAULT '[]' NOT NULL,
	`codes` text DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ref_worker_configurations_key_uq` ON `ref_worker_configurations` (`tenant_key`,`org_key`,`key`);