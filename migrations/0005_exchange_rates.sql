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
CREATE INDEX `exchange_rates_documents_valid_from_number_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`valid_from`,`number`,`created_on`,`id`);