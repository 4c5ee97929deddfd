CREATE TABLE `import_data_info_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`import_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`from_state` integer,
	`to_state` integer NOT NULL,
	`command_id` text NOT NULL,
	`request_id` text,
	`changed_on` text NOT NULL,
	`changed_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_data_info_changes_seq_uq` ON `import_data_info_changes` (`tenant_key`,`org_key`,`import_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `import_data_info_changes_command_uq` ON `import_data_info_changes` (`tenant_key`,`org_key`,`command_id`);--> statement-breakpoint
CREATE TABLE `import_data_infos` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`key` integer NOT NULL,
	`import_data_template` text NOT NULL,
	`original_file_name` text,
	`cloud_file_name` text,
	`import_data_state` integer NOT NULL,
	`import_name` text,
	`detail_log` text,
	`error` text,
	`last_progress_update_on` text,
	`drill_down_operation` text,
	`reverted` integer DEFAULT false NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_on` text NOT NULL,
	`created_by` text NOT NULL,
	`modified_on` text NOT NULL,
	`modified_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_data_infos_key_uq` ON `import_data_infos` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE INDEX `import_data_infos_template_idx` ON `import_data_infos` (`tenant_key`,`org_key`,`import_data_template`,`key`);--> statement-breakpoint
CREATE INDEX `ref_brand_models_brand_idx` ON `ref_brand_models` (`tenant_key`,`org_key`,`brand`);--> statement-breakpoint
CREATE INDEX `ref_companies_base_currency_idx` ON `ref_companies` (`tenant_key`,`org_key`,`base_currency`);--> statement-breakpoint
CREATE INDEX `ref_employees_company_idx` ON `ref_employees` (`tenant_key`,`org_key`,`company`);--> statement-breakpoint
CREATE INDEX `ref_equipment_items_company_idx` ON `ref_equipment_items` (`tenant_key`,`org_key`,`company`);--> statement-breakpoint
CREATE INDEX `ref_locations_company_idx` ON `ref_locations` (`tenant_key`,`org_key`,`company`);