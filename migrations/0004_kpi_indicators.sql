DROP INDEX `email_templates_modifiedOn_idx`;--> statement-breakpoint
DROP INDEX `email_templates_culture_idx`;--> statement-breakpoint
DROP INDEX `email_templates_email_template_type_idx`;--> statement-breakpoint
CREATE INDEX `email_templates_modified_on_idx` ON `email_templates` (`tenant_key`,`org_key`,`modified_on`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_is_active_idx` ON `email_templates` (`tenant_key`,`org_key`,`is_active`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_culture_idx` ON `email_templates` (`tenant_key`,`org_key`,`culture`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `email_templates_email_template_type_idx` ON `email_templates` (`tenant_key`,`org_key`,`email_template_type`,`created_on`,`id`);--> statement-breakpoint
DROP INDEX `routes_route_key_idx`;--> statement-breakpoint
DROP INDEX `routes_location_function_idx`;--> statement-breakpoint
DROP INDEX `routes_family_idx`;--> statement-breakpoint
DROP INDEX `routes_brand_idx`;--> statement-breakpoint
DROP INDEX `routes_brand_model_idx`;--> statement-breakpoint
DROP INDEX `routes_responsible_idx`;--> statement-breakpoint
CREATE INDEX `routes_route_key_idx` ON `routes` (`tenant_key`,`org_key`,`route_key`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_location_function_idx` ON `routes` (`tenant_key`,`org_key`,`location_function`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_family_idx` ON `routes` (`tenant_key`,`org_key`,`family`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_brand_idx` ON `routes` (`tenant_key`,`org_key`,`brand`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_brand_model_idx` ON `routes` (`tenant_key`,`org_key`,`brand_model`,`created_on`,`id`);--> statement-breakpoint
CREATE INDEX `routes_responsible_idx` ON `routes` (`tenant_key`,`org_key`,`responsible`,`created_on`,`id`);