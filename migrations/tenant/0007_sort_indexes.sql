CREATE INDEX `email_templates_subject_idx` ON `email_templates` (`tenant_key`,`org_key`,`subject`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_exchange_rate_type_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`exchange_rate_type`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `exchange_rates_documents_modified_on_idx` ON `exchange_rates_documents` (`tenant_key`,`org_key`,`modified_on`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_description_idx` ON `routes` (`tenant_key`,`org_key`,`description`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_modified_on_idx` ON `routes` (`tenant_key`,`org_key`,`modified_on`,`created_on`,`id`);