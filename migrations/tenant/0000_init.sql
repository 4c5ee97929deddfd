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
CREATE INDEX `email_templates_culture_idx` ON `email_templates` (`tenant_key`,`org_key`,`culture`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_email_template_type_idx` ON `email_templates` (`tenant_key`,`org_key`,`email_template_type`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_modified_on_idx` ON `email_templates` (`tenant_key`,`org_key`,`modified_on`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_is_active_idx` ON `email_templates` (`tenant_key`,`org_key`,`is_active`,`created_on`,`id`);--> statement-breakpoint
CREATE TABLE `exchange_rate_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`document_id` text NOT NULL,
	`line_no` integer NOT NULL,
	`from_currency` text NOT NULL,
	`to_currency` text NOT NULL,
	`conversion_factor` text NOT NULL,
	`from_exchange_rate_id` text,
	`to_exchange_rate_id` text,
	`custom_attributes` text,
	`created_on` text NOT NULL,
	`created_by` text NOT NULL,
	`modified_on` text NOT NULL,
	`modified_by` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `exchange_rates_documents`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "exchange_rate_lines_currencies_differ" CHECK("exchange_rate_lines"."from_currency" <> "exchange_rate_lines"."to_currency")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `exchange_rate_lines_pair_uq` ON `exchange_rate_lines` (`document_id`,`from_currency`,`to_currency`);--> statement-breakpoint
CREATE INDEX `exchange_rate_lines_from_idx` ON `exchange_rate_lines` (`tenant_key`,`org_key`,`from_currency`,`to_currency`);--> statement-breakpoint
CREATE INDEX `exchange_rate_lines_to_idx` ON `exchange_rate_lines` (`tenant_key`,`org_key`,`to_currency`);--> statement-breakpoint
CREATE TABLE `exchange_rates_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`number` integer NOT NULL,
	`valid_from` text NOT NULL,
	`exchange_rate_type` integer NOT NULL,
	`is_externally_managed` integer NOT NULL,
	`external_id` text,
	`external_version` text,
	`custom_attributes` text,
	`is_active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_on` text NOT NULL,
	`created_by` text NOT NULL,
	`modified_on` text NOT NULL,
	`modified_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `exchange_rates_documents_key_uq` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`number`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_created_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_valid_from_number_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`valid_from`,`number`,`created_on`,`id`);--> statement-breakpoint
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
CREATE TABLE `kpi_measurements` (
	`id` integer PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`company` text NOT NULL,
	`code` text NOT NULL,
	`measured_at` text NOT NULL,
	`period` text NOT NULL,
	`value_micros` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kpi_measurements_series_idx` ON `kpi_measurements` (`tenant_key`,`org_key`,`company`,`code`,`period`,`measured_at`,`value_micros`);--> statement-breakpoint
CREATE TABLE `kpi_pending_orgs` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`marked_on` text NOT NULL,
	PRIMARY KEY(`tenant_key`, `org_key`)
);
--> statement-breakpoint
CREATE TABLE `kpi_periods` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`company` text NOT NULL,
	`code` text NOT NULL,
	`period` text NOT NULL,
	`value` text,
	`homologous` text,
	`forecast` text,
	PRIMARY KEY(`tenant_key`, `org_key`, `company`, `code`, `period`)
);
--> statement-breakpoint
CREATE TABLE `kpi_series` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`company` text NOT NULL,
	`code` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`calculated_version` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_key`, `org_key`, `company`, `code`)
);
--> statement-breakpoint
CREATE TABLE `kpi_summaries` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`company` text NOT NULL,
	`code` text NOT NULL,
	`period` text,
	`value` text,
	`homolog_value` text,
	`variation` text,
	`trend` integer,
	`result` integer,
	`value_type` text NOT NULL,
	`value_fraction_digits` integer NOT NULL,
	`currency_symbol` text,
	`calculated_on` text NOT NULL,
	PRIMARY KEY(`tenant_key`, `org_key`, `company`, `code`)
);
--> statement-breakpoint
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
CREATE INDEX `ref_brand_models_brand_idx` ON `ref_brand_models` (`tenant_key`,`org_key`,`brand`);--> statement-breakpoint
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
CREATE INDEX `ref_companies_base_currency_idx` ON `ref_companies` (`tenant_key`,`org_key`,`base_currency`);--> statement-breakpoint
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
CREATE INDEX `ref_employees_company_idx` ON `ref_employees` (`tenant_key`,`org_key`,`company`);--> statement-breakpoint
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
CREATE INDEX `ref_equipment_items_company_idx` ON `ref_equipment_items` (`tenant_key`,`org_key`,`company`);--> statement-breakpoint
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
CREATE INDEX `ref_locations_company_idx` ON `ref_locations` (`tenant_key`,`org_key`,`company`);--> statement-breakpoint
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
CREATE UNIQUE INDEX `ref_worker_configurations_key_uq` ON `ref_worker_configurations` (`tenant_key`,`org_key`,`key`);--> statement-breakpoint
CREATE TABLE `route_equipment_items` (
	`route_id` text NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`equipment_item` text NOT NULL,
	PRIMARY KEY(`route_id`, `equipment_item`),
	FOREIGN KEY (`route_id`) REFERENCES `routes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `route_equipment_items_equipment_item_idx` ON `route_equipment_items` (`tenant_key`,`org_key`,`equipment_item`);--> statement-breakpoint
CREATE TABLE `route_locations` (
	`route_id` text NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`location` text NOT NULL,
	PRIMARY KEY(`route_id`, `location`),
	FOREIGN KEY (`route_id`) REFERENCES `routes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `route_locations_location_idx` ON `route_locations` (`tenant_key`,`org_key`,`location`);--> statement-breakpoint
CREATE TABLE `route_tools` (
	`route_id` text NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`tool` text NOT NULL,
	PRIMARY KEY(`route_id`, `tool`),
	FOREIGN KEY (`route_id`) REFERENCES `routes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `route_tools_tool_idx` ON `route_tools` (`tenant_key`,`org_key`,`tool`);--> statement-breakpoint
CREATE TABLE `routes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`route_key` text NOT NULL,
	`description` text NOT NULL,
	`company` text NOT NULL,
	`location_function` text,
	`family` text,
	`brand` text,
	`brand_model` text,
	`remarks` text,
	`responsible` text,
	`custom_attributes` text,
	`is_active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_on` text NOT NULL,
	`created_by` text NOT NULL,
	`modified_on` text NOT NULL,
	`modified_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `routes_key_uq` ON `routes` (`tenant_key`,`org_key`,`company`,`route_key`);--> statement-breakpoint
CREATE INDEX `routes_created_idx` ON `routes` (`tenant_key`,`org_key`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_company_idx` ON `routes` (`tenant_key`,`org_key`,`company`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_route_key_idx` ON `routes` (`tenant_key`,`org_key`,`route_key`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_location_function_idx` ON `routes` (`tenant_key`,`org_key`,`location_function`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_family_idx` ON `routes` (`tenant_key`,`org_key`,`family`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_brand_idx` ON `routes` (`tenant_key`,`org_key`,`brand`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_brand_model_idx` ON `routes` (`tenant_key`,`org_key`,`brand_model`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_responsible_idx` ON `routes` (`tenant_key`,`org_key`,`responsible`,`created_on`,`id`);