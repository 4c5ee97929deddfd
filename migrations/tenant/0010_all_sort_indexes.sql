CREATE INDEX `email_templates_description_idx` ON `email_templates` (`tenant_key`,`org_key`,`description`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_created_by_idx` ON `email_templates` (`tenant_key`,`org_key`,`created_by`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_modified_by_idx` ON `email_templates` (`tenant_key`,`org_key`,`modified_by`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_version_idx` ON `email_templates` (`tenant_key`,`org_key`,`version`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_valid_from_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`valid_from`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_is_externally_managed_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`is_externally_managed`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_external_id_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`external_id`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_external_version_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`external_version`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_is_active_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`is_active`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_created_by_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`created_by`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_modified_by_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`modified_by`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_version_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`version`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_is_active_idx` ON `routes` (`tenant_key`,`org_key`,`is_active`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_created_by_idx` ON `routes` (`tenant_key`,`org_key`,`created_by`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_modified_by_idx` ON `routes` (`tenant_key`,`org_key`,`modified_by`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_version_idx` ON `routes` (`tenant_key`,`org_key`,`version`,`created_on`,`id`);