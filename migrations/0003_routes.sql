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
CREATE INDEX `routes_route_key_idx` ON `routes` (`tenant_key`,`org_key`,`route_key`);--> statement-breakpoint
CREATE INDEX `routes_location_function_idx` ON `routes` (`tenant_key`,`org_key`,`location_function`);--> statement-breakpoint
CREATE INDEX `routes_family_idx` ON `routes` (`tenant_key`,`org_key`,`family`);--> statement-breakpoint
CREATE INDEX `routes_brand_idx` ON `routes` (`tenant_key`,`org_key`,`brand`);--> statement-breakpoint
CREATE INDEX `routes_brand_model_idx` ON `routes` (`tenant_key`,`org_key`,`brand_model`);--> statement-breakpoint
CREATE INDEX `routes_responsible_idx` ON `routes` (`tenant_key`,`org_key`,`responsible`);